/** The real entry point refuses to start with a wrong master key or bad configuration, in one clear line. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/index.js";
import { storeKeyWithWalletOf, testVault } from "../../helpers/app.js";
import { compiledBuildIsFresh } from "../../harness/child.js";
import { startRefusingPubSub } from "../../helpers/refusing-pubsub.js";

// The compiled build when it is fresh (npm test builds first): a tsx start transpiles the tree each time.
const ENTRY = compiledBuildIsFresh()
  ? ["--enable-source-maps", "dist/main.js"]
  : ["--import", "tsx", "src/main.ts"];

const dir = mkdtempSync(join(tmpdir(), "lasertrade-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ENTRY, {
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
}

const CUSTOM = {
  CLUSTER: "custom",
  RPC_URL: "http://127.0.0.1:1",
  RELAY_URL: "http://127.0.0.1:1",
  BUNDLE_RELAY_URL: "http://127.0.0.1:1",
  RELAY_TIP_ACCOUNTS: "11111111111111111111111111111111",
  PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "silent",
};

describe("start-up", () => {
  it("a wrong master key stops start-up with a clear error", async () => {
    const store = await openStore(undefined, dir);
    const good = testVault("55".repeat(32));
    await storeKeyWithWalletOf(store, good);
    await store.close();
    const r = start({ ...CUSTOM, DATA_DIR: dir, MASTER_KEY: "66".repeat(32) });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^start-up failed: the configured master key \(id [0-9a-f]+\) cannot decrypt stored wallets/,
    );
    expect(r.stderr).not.toContain("66".repeat(32));
  });

  it("bad configuration stops start-up with one line naming the variable", () => {
    const r = start({ PORT: "nope", DATA_DIR: dir });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining("PORT")]);
  });

  it("a non-sandbox cluster without a master key refuses to start", () => {
    const r = start({ ...CUSTOM, DATA_DIR: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("MASTER_KEY");
  });
});

describe("running process", () => {
  it("starts with a configured key, serves, and exits 0 on SIGTERM after closing", async () => {
    const { spawn } = await import("node:child_process");
    const dataDir = mkdtempSync(join(tmpdir(), "lasertrade-run-"));
    // The pre-flight checks at start (DOCTOR_AT_START=warn) meet closed ports at once, but the PubSub check
    // would wait its whole timeout (RPC_TIMEOUT_MS, 5 s) on a closed port: its endpoint refuses at once instead.
    const pubsub = await startRefusingPubSub();
    const child = spawn(process.execPath, ENTRY, {
      env: {
        PATH: process.env.PATH ?? "",
        ...CUSTOM,
        RPC_WS_URL: pubsub.url,
        LOG_LEVEL: "info",
        DATA_DIR: dataDir,
        MASTER_KEY: "77".repeat(32),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (out += d.toString("utf8")));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        child.on("exit", (code) => reject(new Error(`exited early with ${code}: ${out}`)));
        const timer = setInterval(() => {
          const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m?.[1] !== undefined) {
            clearInterval(timer);
            resolve(m[1]);
          }
        }, 50);
      });
      const res = await fetch(`${address}/readyz`);
      expect(await res.json()).toEqual({ status: "ready" });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(out).toContain("shutting down");
    } finally {
      child.kill("SIGKILL");
      await pubsub.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
