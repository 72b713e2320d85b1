/**
 * The compiled build (`node dist/main.js`, what `npm start` runs) in two processes on one database (SQLite,
 * and PostgreSQL when TEST_DATABASE_URL is set) and one localnet: both keep the mint's venue state warm from
 * their subscriptions, so each sees the other's trades and quotes on current state without a read.
 */
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, REPO_ROOT, startCluster, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL } from "../helpers/pg.js";

interface Trade {
  state_source: "cache" | "read";
  state_slot: number;
  venue: string;
  signature: string;
}

beforeAll(() => {
  // `npm test` builds first; a single-file run builds here when dist/ is missing.
  if (!existsSync(`${REPO_ROOT}/dist/main.js`)) {
    execFileSync("npm", ["run", "build:service"], { cwd: REPO_ROOT, stdio: "ignore" });
  }
}, 300_000);

const databases = ["sqlite", ...(TEST_DATABASE_URL !== undefined ? ["postgres" as const] : [])] as const;

describe.each(databases)("compiled service, two processes, warm state on %s", (database) => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ processes: 2, database, compiled: true, slotMs: 100 });
  }, 240_000);
  afterAll(async () => {
    await cluster?.close();
  });

  const buy = async (via: number, apiKey: string, mint: string, fast = false): Promise<Trade> => {
    const res = await apiRequest<Trade>(cluster.services[via]!.baseUrl, "POST", "/v1/trades/execute", {
      apiKey,
      body: { action: "buy", mint, amount: "0.001", ...(fast ? { simulate: false, confirm: false } : {}) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it("both processes trade one mint on warm state, each following the other's trades", async () => {
    const { apiKey } = await cluster.setupKey({ sol: 5n });
    const { mint } = await cluster.localnet.createToken();
    // First trade through each process: a read, after which the process watches the mint.
    expect((await buy(0, apiKey, mint)).state_source).toBe("read");
    expect((await buy(1, apiKey, mint)).state_source).toBe("read");
    const sources: string[] = [];
    let lastSlot = 0;
    for (let i = 0; i < 12; i++) {
      const t = await buy(i % 2, apiKey, mint);
      sources.push(t.state_source);
      expect(t.state_slot).toBeGreaterThanOrEqual(lastSlot);
      lastSlot = t.state_slot;
    }
    // Confirmed trades alternate between the processes: each one's cache took the other's change.
    expect(sources.filter((s) => s === "cache").length).toBeGreaterThanOrEqual(6);
    const listed = await apiRequest<{ watched: string[] }>(cluster.services[1]!.baseUrl, "GET", "/v1/watch", {
      apiKey,
    });
    expect(listed.body.watched).toContain(mint);
  });
});
