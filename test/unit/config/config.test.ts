/** loadConfig: defaults, parsing, and one-line errors naming the variable. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/config.js";
import { configErrorOf } from "../../helpers/config-error.js";

const MAINNET = {
  CLUSTER: "mainnet",
  MASTER_KEY: "ab".repeat(32),
  RPC_URL: "https://rpc.example",
  RELAY_URL: "https://relay.example",
  BUNDLE_RELAY_URL: "https://bundle.example",
  RELAY_TIP_ACCOUNTS: "11111111111111111111111111111111",
};

const errorOf = configErrorOf;

describe("loadConfig", () => {
  it("has sandbox defaults with no environment", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      // Issue 23: the sandbox listens on loopback by default (was 0.0.0.0).
      host: "127.0.0.1",
      dataDir: "./data",
      databaseUrl: undefined,
      cluster: "localnet",
      sandbox: true,
      trustProxy: false,
      logLevel: "info",
      localnetPort: 8899,
      localnetSlotMs: 400,
      relayTipLamports: 200_000n,
      computeUnitPriceMicrolamports: 100_000n,
      computeUnitLimitTrade: 250_000,
      computeUnitLimitCreate: 500_000,
      computeUnitLimitTransfer: 50_000,
      computeUnitLimitClaim: 100_000,
      rpcTimeoutMs: 5000,
      confirmTimeoutMs: 30_000,
      bundleConfirmTimeoutMs: 30_000,
      bundleTipAccounts: undefined,
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it("parses values", () => {
    const c = loadConfig({
      ...MAINNET,
      PORT: "9000",
      DATABASE_URL: "postgres://u@h/db",
      TRUST_PROXY: "10.0.0.0/8, 127.0.0.1",
      COMPUTE_UNIT_PRICE_MICROLAMPORTS: "auto",
      RELAY_TIP_LAMPORTS: "1000",
      BUNDLE_TIP_ACCOUNTS: "11111111111111111111111111111111,So11111111111111111111111111111111111111112",
    });
    expect(c.port).toBe(9000);
    expect(c.sandbox).toBe(false);
    expect(c.trustProxy).toEqual(["10.0.0.0/8", "127.0.0.1"]);
    expect(c.computeUnitPriceMicrolamports).toBe("auto");
    expect(c.relayTipLamports).toBe(1000n);
    expect(c.bundleTipAccounts).toHaveLength(2);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ CLUSTER: "testnet" }, "CLUSTER"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ TRUST_PROXY: "maybe" }, "TRUST_PROXY"],
    [{ REDIS_URL: "http://x" }, "REDIS_URL"],
    [{ RELAY_TIP_LAMPORTS: "1.5" }, "RELAY_TIP_LAMPORTS"],
    [{ COMPUTE_UNIT_PRICE_MICROLAMPORTS: "fast" }, "COMPUTE_UNIT_PRICE_MICROLAMPORTS"],
    [{ RELAY_TIP_ACCOUNTS: "not-an-address" }, "RELAY_TIP_ACCOUNTS"],
    [{ MASTER_KEY: "a", MASTER_KEY_FILE: "b" }, "MASTER_KEY"],
    [{ ...MAINNET, MASTER_KEY: undefined }, "MASTER_KEY"],
    [{ ...MAINNET, RPC_URL: undefined }, "RPC_URL"],
    [{ ...MAINNET, RELAY_URL: undefined }, "RELAY_URL"],
    [{ ...MAINNET, BUNDLE_RELAY_URL: undefined }, "BUNDLE_RELAY_URL"],
    [{ ...MAINNET, RELAY_TIP_ACCOUNTS: undefined }, "RELAY_TIP_ACCOUNTS"],
    [{ ...MAINNET, RPC_URL: "ftp://x" }, "RPC_URL"],
  ])("rejects %j naming %s on one line", (env, variable) => {
    const e = errorOf(env);
    expect(e.variable).toBe(variable);
    expect(e.message).toContain(variable);
    expect(e.message).not.toContain("\n");
  });

  it("refuses a malformed PostgreSQL DATABASE_URL by name, never with its password", () => {
    const e = errorOf({ DATABASE_URL: "postgres://user:pa/ss-secret@host/db" });
    expect(e.variable).toBe("DATABASE_URL");
    expect(JSON.stringify({ ...e, message: e.message })).not.toContain("ss-secret");
  });

  it("never puts the master key in an error", () => {
    const e = errorOf({ MASTER_KEY: "secret-material", MASTER_KEY_FILE: "/x" });
    expect(e.message).not.toContain("secret-material");
  });
});
