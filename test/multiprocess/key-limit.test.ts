/**
 * Issue 29 (finding 9): MAX_KEYS_PER_ACCOUNT holds when creations race across two real service processes on
 * one database — SQLite (always) and PostgreSQL (TEST_DATABASE_URL): exactly the cap is created, the rest get
 * 409, nothing answers 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startCluster, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL } from "../helpers/pg.js";

const CAP = 5;
const REQUESTS = 30;
const engines = ["sqlite" as const, ...(TEST_DATABASE_URL !== undefined ? ["postgres" as const] : [])];

describe.each(engines)("MAX_KEYS_PER_ACCOUNT across two processes on %s", (database) => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({
      processes: 2,
      database,
      serviceEnv: { MAX_KEYS_PER_ACCOUNT: String(CAP) },
    });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it(`${REQUESTS} concurrent creations: exactly ${CAP} keys`, async () => {
    const url = (i: number) => cluster.services[i % 2]!.baseUrl;
    const { apiKey } = await cluster.setupKey({ sol: 0n });
    const results = await Promise.all(
      Array.from({ length: REQUESTS }, (_, i) =>
        apiRequest<{ detail?: string }>(url(i), "POST", "/v1/keys", {
          apiKey,
          body: { name: `bot-${i}`, scopes: ["read"] },
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 201),
      JSON.stringify(statuses),
    ).toHaveLength(CAP);
    expect(statuses.filter((s) => s === 409)).toHaveLength(REQUESTS - CAP);
    const list = await apiRequest<{ keys: unknown[] }>(url(0), "GET", "/v1/keys", { apiKey });
    expect(list.body.keys).toHaveLength(CAP + 1);
  });
});
