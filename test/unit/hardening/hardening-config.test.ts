/** Issue 23's configuration rules and safe defaults. */
import { mkdtempSync, mkdirSync, chmodSync, statSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/config.js";
import { ensurePrivateDir } from "../../../src/core/private-files.js";
import { openStore } from "../../../src/store/index.js";

const errorOf = (env: NodeJS.ProcessEnv): ConfigError => {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error("no ConfigError");
};

describe("safe defaults", () => {
  it("the sandbox listens on 127.0.0.1; other clusters keep 0.0.0.0; HOST overrides", () => {
    expect(loadConfig({}).host).toBe("127.0.0.1");
    expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
  });

  it("RPC_URL or a relay without CLUSTER is a configuration error, not a silent sandbox", () => {
    for (const name of ["RPC_URL", "RELAY_URL", "BUNDLE_RELAY_URL"]) {
      const e = errorOf({ [name]: "https://x.example" });
      expect(e.variable).toBe("CLUSTER");
      expect(e.message).toContain(name);
    }
    expect(errorOf({ RELAY: "jito-ny" }).variable).toBe("CLUSTER");
  });

  it("has the documented limits and refuses a token gate without its token", () => {
    const h = loadConfig({}).hardening;
    expect(h).toMatchObject({
      requestTimeoutMs: 10_000,
      maxWalletsPerKey: 1000,
      setupMode: "open",
      budgets: { reads: 600, checks: 60, executions: 300, public: 600, refusals: 60 },
      // Issue 29: an account's budgets default to one key's.
      accountBudgets: { reads: 600, checks: 60, executions: 300, refusals: 60 },
      authFailuresPerMinute: 60,
    });
    expect(errorOf({ SETUP_MODE: "token" }).variable).toBe("SETUP_TOKEN");
    expect(errorOf({ METRICS_TOKEN: "short" }).variable).toBe("METRICS_TOKEN");
    expect(errorOf({ ALLOWED_HOSTS: "https://x.example/" }).variable).toBe("ALLOWED_HOSTS");
  });
});

describe("private data directory", () => {
  const root = mkdtempSync(join(tmpdir(), "lt-hardening-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("creates the directory 0700 and the SQLite files 0600", async () => {
    const dir = join(root, "fresh");
    expect(ensurePrivateDir(dir)).toBeUndefined();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const store = await openStore(undefined, dir);
    await store.close();
    expect(statSync(join(dir, "lasertrade.sqlite")).mode & 0o777).toBe(0o600);
  });

  it("uses an existing open directory as it is, with a warning", () => {
    const dir = join(root, "open");
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(ensurePrivateDir(dir)).toMatch(/readable by other users/);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
  });
});
