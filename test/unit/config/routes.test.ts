/** ROUTES: senders with their own tip accounts, minimums and protection; refusals name the variable. */
import { describe, expect, it } from "vitest";
import { loadRouteSettings } from "../../../src/config/routes.js";
import { ConfigError } from "../../../src/config/parse.js";
import { relayEndpointUrl } from "../../../src/config/relays.js";
import { RELAY_PRESETS } from "../../../src/chain/relay-presets.js";
import { PublicKey } from "@solana/web3.js";

const load = (env: Record<string, string>, cluster = "mainnet", sandbox = false) =>
  loadRouteSettings(env, cluster, sandbox);

describe("ROUTES", () => {
  it("unset: no racing", () => {
    expect(load({})).toEqual([]);
  });

  it("races routes with different tip accounts, each with its own minimum and protection", () => {
    const routes = load({
      ROUTES: "jito-ny,helius-sender,nozomi,bloxroute-ny,rpc",
      NOZOMI_API_KEY: "k",
      BLOXROUTE_AUTH_HEADER: "h",
      ROUTE_TIP_LAMPORTS: "500000",
    });
    expect(routes.map((r) => [r.name, r.minTipLamports, r.tipLamports, r.mevProtect, r.wire])).toEqual([
      ["jito-ny", 1_000n, 500_000n, true, "jsonrpc"],
      ["helius-sender", 1_000_000n, 1_000_000n, false, "jsonrpc"],
      ["nozomi", 1_000_000n, 1_000_000n, false, "jsonrpc"],
      ["bloxroute-ny", 1_000_000n, 1_000_000n, true, "submit-v2"],
      ["rpc", 0n, 500_000n, false, "jsonrpc"],
    ]);
    expect(new Set(routes.flatMap((r) => r.tipAccounts)).size).toBe(8 + 10 + 17 + 4);
    expect(routes[3]!.auth().headers).toEqual({ Authorization: "h" });
    // The key never shows in the configuration's JSON.
    expect(
      JSON.stringify(routes, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v)),
    ).not.toContain('"h"');
  });

  it("refuses unknown, duplicate, keyless, wrong-cluster and localnet-outside-sandbox routes", () => {
    const refusal = (env: Record<string, string>, cluster = "mainnet", sandbox = false) => {
      try {
        load(env, cluster, sandbox);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      return "accepted";
    };
    expect(refusal({ ROUTES: "jito-mars" })).toMatch(/ROUTES.*unknown route "jito-mars" \(known: jito,/);
    expect(refusal({ ROUTES: "jito,jito" })).toMatch(/names "jito" twice/);
    expect(refusal({ ROUTES: "nozomi" })).toMatch(/NOZOMI_API_KEY.*is required/);
    expect(refusal({ ROUTES: "jito-ny" }, "devnet")).toMatch(/mainnet route "jito-ny" but CLUSTER=devnet/);
    expect(refusal({ ROUTES: "localnet-route-a" })).toMatch(/only the sandbox knows/);
    expect(refusal({ ROUTES: "localnet-route-a,localnet-route-b" }, "localnet", true)).toBe("accepted");
  });

  it("0slot presets (third-party facts): five regions, the api-key query parameter, own tip accounts", () => {
    const zeroslot = [...RELAY_PRESETS.values()].filter((p) => p.name.startsWith("0slot-"));
    expect(zeroslot.map((p) => [p.name, p.url])).toEqual([
      ["0slot-ny", "http://ny.0slot.trade/"],
      ["0slot-de2", "http://de2.0slot.trade/"],
      ["0slot-ams", "http://ams.0slot.trade/"],
      ["0slot-la", "http://la.0slot.trade/"],
      ["0slot-jp", "http://jp.0slot.trade/"],
    ]);
    for (const p of zeroslot) {
      expect(p).toMatchObject({ kind: "sender", minTipLamports: 100_000n });
      expect(p.mevProtect).toBeUndefined();
      expect(p.auth).toEqual({ in: "query", name: "api-key", env: "ZEROSLOT_API_KEY", required: true });
      expect(p.source).toMatch(/^third-party: .*sol-trade-sdk/);
      expect(p.tipAccounts).toHaveLength(5);
      // Every tip account is a valid address (the doctor then checks that it exists on mainnet).
      for (const a of p.tipAccounts) expect(new PublicKey(a).toBase58()).toBe(a);
    }
    const [route] = load({ ROUTES: "0slot-ny", ZEROSLOT_API_KEY: "k1", ROUTE_TIP_LAMPORTS: "50000" });
    // The tip is raised to the minimum; the key goes in the query, never a header.
    expect(route).toMatchObject({
      name: "0slot-ny",
      tipLamports: 100_000n,
      mevProtect: false,
      wire: "jsonrpc",
    });
    expect(route!.auth()).toEqual({ headers: {}, query: { "api-key": "k1" } });
    expect(relayEndpointUrl(route!, "http://rpc.invalid")).toBe("http://ny.0slot.trade/?api-key=k1");
    expect(() => load({ ROUTES: "0slot-jp" })).toThrow(/ZEROSLOT_API_KEY.*is required/);
  });
});
