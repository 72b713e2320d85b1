/** Pure custody rules: the refusal texts' SOL format, what a body spends, the body-decidable policy rules. */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { solText } from "../../../../src/core/amounts.js";
import { parsePolicy } from "../../../../src/domain/keys/policy.js";
import { authorize } from "../../../../src/domain/keys/scopes.js";
import {
  checkPlan,
  dailyCapDetail,
  priorityFeeLamports,
  spendPlanOf,
  type SpendPlan,
  sol2,
  venueVerdict,
} from "../../../../src/domain/keys/spend.js";
import {
  checkRoutedVenue,
  contextPolicy,
  type CustodyContext,
} from "../../../../src/domain/keys/custody-store.js";
import type { KeyRecord } from "../../../../src/store/index.js";
import { keyRecord } from "../../../helpers/fixtures.js";
import type { BundleLimits } from "../../../../src/domain/bundle/shape.js";
import { EXECUTION_KIND_LIST } from "../../../../src/domain/kinds.js";

/** A body's spend plan as the policy step gets it: the kind's parser, then its planner (undefined: refused). */
function planSpend(
  kind: string,
  body: object,
  relayTip: bigint,
  limits: BundleLimits,
): SpendPlan | undefined {
  const k = EXECUTION_KIND_LIST.find((d) => d.kind === kind)!;
  let intent: unknown;
  try {
    intent = k.parse(body as Record<string, unknown>, limits);
  } catch {
    return undefined;
  }
  return spendPlanOf(k.kind, k.plan, intent, relayTip);
}

const SOL = 1_000_000_000n;
const mint = Keypair.generate().publicKey.toBase58();
const ext = Keypair.generate().publicKey.toBase58();
const limits = { tipMaxLamports: 100_000_000n };

describe("custody rules", () => {
  it("formats the issue's refusal exactly", () => {
    expect(dailyCapDetail("trade", 9_800_000_000n, 10n * SOL, 500_000_000n)).toBe(
      "policy max_sol_per_24h: 9.80 of 10 SOL used, this trade needs 0.50",
    );
    expect(sol2(0n)).toBe("0.00");
    expect(sol2(5_000n)).toBe("0.000005");
    expect(solText(1_500_000_000n)).toBe("1.5");
    expect(priorityFeeLamports(100_000n, 250_000)).toBe(25_000n);
    expect(priorityFeeLamports(1n, 1)).toBe(1n);
  });

  it("plans what a body spends with the endpoints' own parsers", () => {
    expect(planSpend("trade", { action: "buy", mint, amount: "0.25" }, 1000n, limits)).toMatchObject({
      amountLamports: 250_000_000n,
      tipLamports: 1000n,
      mints: [mint],
      usesDefault: true,
    });
    expect(
      planSpend("trade", { action: "buy", mint, amount: "1000", denominated_in_sol: false }, 0n, limits)
        ?.amountLamports,
    ).toBeNull();
    expect(planSpend("trade", { action: "sell", mint, amount: "50%" }, 0n, limits)?.amountLamports).toBe(0n);
    expect(planSpend("transfer", { destination_wallet: ext, amount: "2" }, 0n, limits)).toMatchObject({
      amountLamports: 2n * SOL,
      destinations: [ext],
    });
    expect(planSpend("trade", { action: "hold" }, 0n, limits)).toBeUndefined();
  });

  it("decides the body-decidable rules in a fixed order", () => {
    const plan = planSpend("trade", { action: "buy", mint, amount: "0.6", pool: ext }, 0n, limits)!;
    expect(checkPlan(parsePolicy({ mints_deny: [mint] }), plan, new Set())?.rule).toBe("mints_deny");
    expect(checkPlan(parsePolicy({ mints_allow: [ext] }), plan, new Set())?.rule).toBe("mints_allow");
    expect(checkPlan(parsePolicy({ venues: ["bonding_curve"] }), plan, new Set())?.rule).toBe("venues");
    expect(checkPlan(parsePolicy({ max_sol_per_execution: "0.5" }), plan, new Set())?.rule).toBe(
      "max_sol_per_execution",
    );
    expect(checkPlan(parsePolicy({ max_sol_per_execution: "0.6" }), plan, new Set())).toBeNull();
    const send = planSpend("transfer", { destination_wallet: ext, amount: "1" }, 0n, limits)!;
    expect(checkPlan(parsePolicy({ destinations_allow: [] }), send, new Set())?.rule).toBe(
      "destinations_allow",
    );
    expect(checkPlan(parsePolicy({ destinations_allow: [] }), send, new Set([ext]))).toBeNull();
  });

  it("venues: the body decides an explicit pool and a create; a routed venue is checked with its own text", () => {
    const curveOnly = parsePolicy({ venues: ["bonding_curve"] });
    const poolOnly = parsePolicy({ venues: ["launchswap"] });
    const routed = planSpend("trade", { action: "buy", mint, amount: "0.1" }, 0n, limits)!;
    expect(routed.venues).toEqual([]);
    expect(checkPlan(curveOnly, routed, new Set())).toBeNull();
    expect(checkPlan(poolOnly, routed, new Set())).toBeNull();
    const create = planSpend(
      "create",
      { name: "A", symbol: "A", uri: "https://example.com/a.json" },
      0n,
      limits,
    )!;
    expect(create.venues).toEqual(["bonding_curve"]);
    expect(checkPlan(poolOnly, create, new Set())).toEqual({
      rule: "venues",
      detail: "policy venues: the bonding_curve venue is not allowed for this key",
    });
    expect(checkPlan(curveOnly, create, new Set())).toBeNull();
    const createLed = planSpend(
      "bundle",
      {
        accounts: [{ type: "create", name: "A", symbol: "A", uri: "https://example.com/a.json" }],
        bundleTip: "0.00001",
      },
      0n,
      limits,
    );
    expect(createLed?.venues).toEqual(["bonding_curve"]);
    expect(venueVerdict(curveOnly, "launchswap")).toEqual({
      rule: "venues",
      detail: "policy venues: the launchswap venue is not allowed for this key",
    });
    expect(venueVerdict(curveOnly, "bonding_curve")).toBeNull();
    expect(venueVerdict({}, "launchswap")).toBeNull();
  });

  it("a routed venue outside the policy throws the 403, or on a dry run becomes the verdict", () => {
    const key = keyRecord({ policy: { venues: ["bonding_curve"] } });
    const ctx: CustodyContext = { key, wallets: new Set(), executionIds: [] };
    expect(() => checkRoutedVenue(ctx, "bonding_curve")).not.toThrow();
    expect(() => checkRoutedVenue(ctx, "launchswap")).toThrow(
      expect.objectContaining({ status: 403, extra: { rule: "venues" } }),
    );
    expect(() => checkRoutedVenue(null, "launchswap")).not.toThrow();
    const dry: CustodyContext = { ...ctx, dryRun: true };
    checkRoutedVenue(dry, "launchswap");
    expect(dry.verdict).toEqual({
      rule: "venues",
      detail: "policy venues: the launchswap venue is not allowed for this key",
    });
  });

  it("the venue check reads the policy the request already parsed, and parses it once when none was", () => {
    const key = keyRecord();
    const parsed: CustodyContext = {
      key,
      policy: { venues: ["bonding_curve"] },
      wallets: new Set(),
      executionIds: [],
    };
    expect(() => checkRoutedVenue(parsed, "launchswap")).toThrow(expect.objectContaining({ status: 403 }));
    const fresh: CustodyContext = {
      key: { ...key, policy: { venues: ["launchswap"] } },
      wallets: new Set(),
      executionIds: [],
    };
    expect(contextPolicy(fresh)).toBe(contextPolicy(fresh));
    expect(fresh.policy).toEqual({ venues: ["launchswap"] });
  });

  it("authorizes: revoked/expired 401 before frozen 403 before scope 403", () => {
    const key = keyRecord({ name: "k", scopes: ["read"], createdAt: "" });
    const now = new Date("2026-11-24T00:00:00Z");
    const status = (k: KeyRecord, s: Parameters<typeof authorize>[1]) => {
      try {
        authorize(k, s, now);
        return 0;
      } catch (e) {
        return (e as { status: number }).status;
      }
    };
    expect(status(key, "read")).toBe(0);
    expect(status(key, "trade")).toBe(403);
    expect(status(key, "root")).toBe(403);
    expect(status({ ...key, frozen: true }, "read")).toBe(403);
    expect(status({ ...key, frozen: true, revokedAt: "x" }, "read")).toBe(401);
    expect(status({ ...key, expiresAt: "2026-11-23T23:59:59Z" }, "read")).toBe(401);
    expect(status({ ...key, root: true, scopes: null }, "root")).toBe(0);
  });
});
