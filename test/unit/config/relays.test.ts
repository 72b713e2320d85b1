/** RELAY presets, explicit overrides, auth keys that never show, and the fee policy settings. */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  JITO_TIP_ACCOUNTS,
  HELIUS_SENDER_TIP_ACCOUNTS,
  RELAY_PRESETS,
} from "../../../src/chain/relay-presets.js";
import { chainOptionsFromConfig, loadConfig } from "../../../src/config/config.js";
import { configErrorOf } from "../../helpers/config-error.js";

const MAINNET = {
  CLUSTER: "mainnet",
  MASTER_KEY: "ab".repeat(32),
  RPC_URL: "https://rpc.example/?api-key=k",
};

const errorOf = configErrorOf;

describe("relay presets", () => {
  it("every preset has a URL, a source, and tip accounts that are valid base58 keys", () => {
    expect(RELAY_PRESETS.size).toBeGreaterThan(20);
    for (const p of RELAY_PRESETS.values()) {
      expect(p.url).toMatch(/^(https?:\/\/|\{rpc\})/);
      expect(p.source.length).toBeGreaterThan(0);
      for (const a of p.tipAccounts) expect(a).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    }
    expect(JITO_TIP_ACCOUNTS).toHaveLength(8);
    expect(HELIUS_SENDER_TIP_ACCOUNTS).toHaveLength(10);
  });

  it("RELAY=jito-ny,jito-frankfurt fans out to both block engines, with Jito's tips and bundle endpoint", () => {
    const c = loadConfig({ ...MAINNET, RELAY: "jito-ny, jito-frankfurt" });
    expect(c.relays.map((r) => r.name)).toEqual(["jito-ny", "jito-frankfurt"]);
    expect(c.relayTipAccounts).toEqual(JITO_TIP_ACCOUNTS);
    expect(c.relayTipLamports).toBe(200_000n);
    expect(c.bundleRelayUrl).toBe("https://ny.mainnet.block-engine.jito.wtf");
    expect(c.bundleTipAccounts).toEqual(JITO_TIP_ACCOUNTS);
    const o = chainOptionsFromConfig(c);
    expect(o.relays?.map((r) => r.url)).toEqual([
      "https://ny.mainnet.block-engine.jito.wtf/api/v1/transactions",
      "https://frankfurt.mainnet.block-engine.jito.wtf/api/v1/transactions",
    ]);
    expect(o.relayUrl).toBe(o.relays?.[0]?.url);
  });

  it("uses a preset's published minimum when it is above the default tip, and refuses a lower RELAY_TIP_LAMPORTS", () => {
    const c = loadConfig({ ...MAINNET, RELAY: "helius-sender", BUNDLE_RELAY_URL: "https://b.example" });
    expect(c.relayTipLamports).toBe(1_000_000n);
    expect(c.relayTipAccounts).toEqual(HELIUS_SENDER_TIP_ACCOUNTS);
    const e = errorOf({
      ...MAINNET,
      RELAY: "helius-sender",
      BUNDLE_RELAY_URL: "https://b.example",
      RELAY_TIP_LAMPORTS: "5000",
    });
    expect(e.variable).toBe("RELAY_TIP_LAMPORTS");
    expect(e.message).toContain("at least 1000000");
    expect(e.message).toContain("helius-sender");
  });

  it("names the setting for an unknown, repeated or mixed-tip relay list", () => {
    const unknown = errorOf({ ...MAINNET, RELAY: "jito-ny,jitoo" });
    expect(unknown.variable).toBe("RELAY");
    expect(unknown.message).toContain('unknown relay "jitoo"');
    expect(unknown.message).toContain("jito-tokyo");
    expect(errorOf({ ...MAINNET, RELAY: "jito,jito" }).message).toContain('names "jito" twice');
    const mixed = errorOf({ ...MAINNET, RELAY: "jito-ny,helius-sender" });
    expect(mixed.variable).toBe("RELAY");
    expect(mixed.message).toContain("different tip accounts (jito-ny, helius-sender)");
    // An explicit tip list is the operator's decision.
    expect(() =>
      loadConfig({
        ...MAINNET,
        RELAY: "jito-ny,helius-sender",
        RELAY_TIP_ACCOUNTS: HELIUS_SENDER_TIP_ACCOUNTS[0]!,
      }),
    ).not.toThrow();
  });

  it("refuses a mainnet relay on another cluster, and a missing bundle relay", () => {
    const e = errorOf({ CLUSTER: "localnet", RELAY: "jito-ny" });
    expect(e.variable).toBe("RELAY");
    expect(e.message).toContain("CLUSTER=localnet");
    const b = errorOf({ ...MAINNET, RELAY: "helius-sender" });
    expect(b.variable).toBe("BUNDLE_RELAY_URL");
  });

  it("a zero tip is refused wherever a relay takes a tip", () => {
    expect(errorOf({ RELAY_TIP_LAMPORTS: "0" }).variable).toBe("RELAY_TIP_LAMPORTS");
    expect(errorOf({ CLUSTER: "localnet", RELAY: "localnet", RELAY_TIP_LAMPORTS: "0" }).message).toContain(
      "must be positive",
    );
    expect(errorOf({ ...MAINNET, RELAY: "jito-ny", RELAY_TIP_LAMPORTS: "0" }).message).toContain(
      "at least 1000",
    );
    expect(
      loadConfig({ ...MAINNET, RELAY: "rpc", RELAY_TIP_LAMPORTS: "0", BUNDLE_RELAY_URL: "https://b.example" })
        .relayTipLamports,
    ).toBe(0n);
  });

  it("rpc needs no tip and sends to RPC_URL; it joins a tipped relay without conflict", () => {
    const c = loadConfig({ ...MAINNET, RELAY: "rpc", BUNDLE_RELAY_URL: "https://b.example" });
    expect(c.relayTipAccounts).toEqual([]);
    expect(c.relayTipLamports).toBe(0n);
    expect(chainOptionsFromConfig(c).relays?.[0]?.url).toBe("https://rpc.example/?api-key=k");
    const both = loadConfig({ ...MAINNET, RELAY: "jito-ny,rpc" });
    expect(both.relayTipAccounts).toEqual(JITO_TIP_ACCOUNTS);
  });

  it("the localnet's relays by name: tips from the sandbox, or RELAY_TIP_ACCOUNTS against a standalone localnet", () => {
    const sandbox = loadConfig({ CLUSTER: "localnet", RELAY: "localnet,localnet2" });
    expect(sandbox.relays.map((r) => r.url)).toEqual(["{rpc}/relay", "{rpc}/relay2"]);
    expect(sandbox.relayTipLamports).toBe(200_000n);
    const standalone = { CLUSTER: "custom", MASTER_KEY: "ab".repeat(32), RPC_URL: "http://127.0.0.1:8899" };
    expect(
      errorOf({ ...standalone, RELAY: "localnet", BUNDLE_RELAY_URL: "http://127.0.0.1:8899" }).variable,
    ).toBe("RELAY_TIP_ACCOUNTS");
    const c = loadConfig({
      ...standalone,
      RELAY: "localnet,localnet2",
      RELAY_TIP_ACCOUNTS: "11111111111111111111111111111111",
      BUNDLE_RELAY_URL: "http://127.0.0.1:8899",
    });
    expect(chainOptionsFromConfig(c).relays?.map((r) => r.url)).toEqual([
      "http://127.0.0.1:8899/relay",
      "http://127.0.0.1:8899/relay2",
    ]);
  });

  it("RELAY_URL replaces the first relay's URL; RELAY_TIP_ACCOUNTS replaces its tips", () => {
    const tip = "96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5";
    const c = loadConfig({
      ...MAINNET,
      RELAY: "jito-ny",
      RELAY_URL: "https://private.example/tx",
      RELAY_TIP_ACCOUNTS: tip,
    });
    expect(c.relays[0]?.url).toBe("https://private.example/tx");
    expect(c.relayTipAccounts).toEqual([tip]);
  });

  it("reads an auth key from the preset's variable, sends it, and never shows it in the config", () => {
    const secret = "3f1c9e0a-secret-uuid";
    const c = loadConfig({ ...MAINNET, RELAY: "jito-ny", JITO_AUTH_UUID: secret });
    expect(JSON.stringify(c, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))).not.toContain(
      secret,
    );
    expect(inspect(c, { depth: 10 })).not.toContain(secret);
    expect(chainOptionsFromConfig(c).relays?.[0]?.headers).toEqual({ "x-jito-auth": secret });
    // Optional for Jito: absent means no header.
    expect(chainOptionsFromConfig(loadConfig({ ...MAINNET, RELAY: "jito-ny" })).relays?.[0]?.headers).toEqual(
      {},
    );
  });

  it("a required key that is missing names its variable; a query-parameter key goes into the URL only", () => {
    const e = errorOf({ ...MAINNET, RELAY: "astralane-ny", BUNDLE_RELAY_URL: "https://b.example" });
    expect(e.variable).toBe("ASTRALANE_API_KEY");
    expect(e.message).toContain("RELAY=astralane-ny");
    const c = loadConfig({
      ...MAINNET,
      RELAY: "nozomi-ewr1",
      NOZOMI_API_KEY: "nz-key",
      BUNDLE_RELAY_URL: "https://b.example",
    });
    expect(inspect(c, { depth: 10 })).not.toContain("nz-key");
    expect(chainOptionsFromConfig(c).relays?.[0]?.url).toBe("http://ewr1.nozomi.temporal.xyz/?c=nz-key");
  });

  it("without RELAY keeps the explicit settings (and requires them outside the sandbox)", () => {
    expect(errorOf({ ...MAINNET }).variable).toBe("RELAY_URL");
    const c = loadConfig({
      ...MAINNET,
      RELAY_URL: "https://relay.example",
      RELAY_TIP_ACCOUNTS: "11111111111111111111111111111111",
      BUNDLE_RELAY_URL: "https://b.example",
    });
    expect(c.relays.map((r) => r.name)).toEqual(["custom"]);
    expect(loadConfig({}).relays).toEqual([]);
  });
});

describe("fee policy settings", () => {
  it("parses auto, auto:pNN and the cap", () => {
    expect(loadConfig({ COMPUTE_UNIT_PRICE_MICROLAMPORTS: "auto" })).toMatchObject({
      computeUnitPriceMicrolamports: "auto",
      computeUnitPricePercentile: 75,
      computeUnitPriceMaxMicrolamports: 2_000_000n,
    });
    const c = loadConfig({
      COMPUTE_UNIT_PRICE_MICROLAMPORTS: "auto:p90",
      COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS: "500000",
    });
    expect(
      chainOptionsFromConfig({
        ...c,
        rpcUrl: "http://r",
        relayUrl: "http://r",
        bundleRelayUrl: "http://b",
        relays: [{ name: "x", url: "http://r", auth: () => ({ headers: {}, query: {} }) }],
      }).computeUnitPrice,
    ).toEqual({
      mode: "auto",
      percentile: 90,
      maxMicroLamports: 500_000n,
    });
  });

  it("names the variable for a bad percentile, a fixed price above the cap, or a zero cap", () => {
    expect(errorOf({ COMPUTE_UNIT_PRICE_MICROLAMPORTS: "auto:p99" }).message).toContain(
      "auto:p50, auto:p75 or auto:p90",
    );
    expect(errorOf({ COMPUTE_UNIT_PRICE_MICROLAMPORTS: "fast" }).variable).toBe(
      "COMPUTE_UNIT_PRICE_MICROLAMPORTS",
    );
    const above = errorOf({
      COMPUTE_UNIT_PRICE_MICROLAMPORTS: "3000000",
      COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS: "1000000",
    });
    expect(above.message).toContain("above COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS");
    expect(errorOf({ COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS: "0" }).variable).toBe(
      "COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS",
    );
    expect(
      errorOf({ COMPUTE_UNIT_PRICE_MICROLAMPORTS: "auto", COMPUTE_UNIT_PRICE_MAX_MICROLAMPORTS: "500" })
        .message,
    ).toContain("the floor of auto");
  });

  it("DOCTOR_AT_START is warn by default and must be warn, refuse or off", () => {
    expect(loadConfig({}).doctorAtStart).toBe("warn");
    expect(loadConfig({ DOCTOR_AT_START: "refuse" }).doctorAtStart).toBe("refuse");
    expect(errorOf({ DOCTOR_AT_START: "yes" }).variable).toBe("DOCTOR_AT_START");
  });
});
