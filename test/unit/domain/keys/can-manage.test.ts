/**
 * Issue 29, finding 1: the exhaustive table of canManage — every scope pair (caller with and without `keys`,
 * each action), caller bound/unbound against target bound/unbound, subset or not, policy widen/narrow/equal,
 * expiry, self vs other, root vs sub-key.
 */
import { describe, expect, it } from "vitest";
import {
  canManage,
  KEY_POWERS,
  powersExceeding,
  type KeyAction,
  type KeyChange,
  type KeyPowers,
} from "../../../../src/domain/keys/can-manage.js";
import type { Policy } from "../../../../src/domain/keys/policy.js";
import { SCOPES } from "../../../../src/domain/keys/scopes.js";

const ACTIONS: readonly KeyAction[] = ["create", "revoke", "freeze", "unfreeze", "policy"];
const W1 = "Wallet1111111111111111111111111111111111111";
const W2 = "Wallet2222222222222222222222222222222222222";
const W3 = "Wallet3333333333333333333333333333333333333";

function key(over: Partial<KeyPowers> = {}): KeyPowers {
  return { id: 2, root: false, scopes: [...SCOPES], wallets: null, policy: {}, expiresAt: null, ...over };
}
const ROOT = key({ id: 1, root: true, scopes: null });
const caller = (over: Partial<KeyPowers> = {}) => key({ id: 2, ...over });
const other = (over: Partial<KeyPowers> = {}) => key({ id: 3, ...over });

/** The change for `action`; `policy` sets `newPolicy` (default: the target's own, so only its powers count). */
function change(action: KeyAction, newPolicy: Policy = {}): KeyChange {
  return action === "policy" ? { action, policy: newPolicy } : { action };
}

/** Every subset of SCOPES (64). */
const SUBSETS: string[][] = Array.from({ length: 1 << SCOPES.length }, (_, m) =>
  SCOPES.filter((_, i) => (m & (1 << i)) !== 0),
);

const verdictOf = (v: ReturnType<typeof canManage>) =>
  v.ok ? "ok" : `${v.status}${v.status === 403 ? ` ${v.rule}` : ""}`;

describe("canManage: scopes", () => {
  it("every caller scope set × every target scope set × every action", () => {
    let cases = 0;
    for (const callerScopes of SUBSETS) {
      for (const targetScopes of SUBSETS.filter((s) => s.length > 0)) {
        for (const action of ACTIONS) {
          const v = canManage(
            caller({ scopes: callerScopes }),
            other({ scopes: targetScopes }),
            change(action),
          );
          // `trade` includes `build` (outside wallets).
          const subset = targetScopes.every(
            (s) => callerScopes.includes(s) || (s === "build" && callerScopes.includes("trade")),
          );
          const want = !callerScopes.includes("keys") ? "403 scope" : subset ? "ok" : "403 powers";
          expect(verdictOf(v), `${callerScopes.join()} → ${targetScopes.join()} ${action}`).toBe(want);
          cases++;
        }
      }
    }
    expect(cases).toBe(128 * 127 * 5);
  });

  it("names the scopes the target holds beyond the caller's", () => {
    const v = canManage(caller({ scopes: ["keys", "read"] }), other({ scopes: ["read", "transfer"] }), {
      action: "create",
    });
    expect(v).toEqual({
      ok: false,
      status: 403,
      rule: "powers",
      detail: "a new key may not hold powers its creator lacks: scopes transfer",
    });
  });
});

describe("canManage: wallet binding", () => {
  // [caller binding, target binding, allowed]
  const table: [string[] | null, string[] | null, boolean][] = [
    [null, null, true],
    [null, [W1], true],
    [null, [W1, W2, W3], true],
    [[W1, W2], null, false],
    [[W1, W2], [W1], true],
    [[W1, W2], [W2, W1], true],
    [[W1, W2], [W3], false],
    [[W1, W2], [W1, W3], false],
    [[W1], [W1], true],
    [[W1], [W1, W2], false],
    [[W1], null, false],
  ];
  for (const action of ACTIONS) {
    it.each(table)(`${action}: caller %j, target %j → allowed %s`, (cw, tw, allowed) => {
      const v = canManage(caller({ wallets: cw }), other({ wallets: tw }), change(action));
      expect(verdictOf(v)).toBe(allowed ? "ok" : "403 powers");
    });
  }

  it("says what the binding lacks", () => {
    expect(powersExceeding(caller({ wallets: [W1] }), other({ wallets: null }))).toEqual([
      "every wallet of the account (this key is bound to wallets)",
    ]);
    expect(powersExceeding(caller({ wallets: [W1] }), other({ wallets: [W1, W2] }))).toEqual([
      `wallets ${W2}`,
    ]);
  });
});

const SOL = 1_000_000_000n;
// [caller policy, target policy, allowed] — widen, equal, narrow for each field kind.
const POLICIES: [string, Policy, Policy, boolean][] = [
  ["no policy: anything", {}, { maxSolPer24h: 100n * SOL }, true],
  ["no policy: none", {}, {}, true],
  ["cap: dropped (widen)", { maxSolPer24h: SOL }, {}, false],
  ["cap: equal", { maxSolPer24h: SOL }, { maxSolPer24h: SOL }, true],
  ["cap: narrower", { maxSolPer24h: SOL }, { maxSolPer24h: SOL - 1n }, true],
  ["cap: wider", { maxSolPer24h: SOL }, { maxSolPer24h: SOL + 1n }, false],
  ["per-execution cap: wider", { maxSolPerExecution: SOL }, { maxSolPerExecution: 2n * SOL }, false],
  ["per-execution cap: dropped", { maxSolPerExecution: SOL }, { maxSolPer24h: SOL }, false],
  ["priority fee: equal", { maxPriorityFeeLamports: 5n }, { maxPriorityFeeLamports: 5n }, true],
  ["priority fee: wider", { maxPriorityFeeLamports: 5n }, { maxPriorityFeeLamports: 6n }, false],
  ["tip: 0 kept", { maxTipLamports: 0n }, { maxTipLamports: 0n }, true],
  ["tip: dropped", { maxTipLamports: 0n }, {}, false],
  ["extra cap on the target only", { maxTipLamports: 0n }, { maxTipLamports: 0n, maxSolPer24h: SOL }, true],
  ["venues: equal", { venues: ["bonding_curve"] }, { venues: ["bonding_curve"] }, true],
  ["venues: more", { venues: ["bonding_curve"] }, { venues: ["bonding_curve", "launchswap"] }, false],
  ["venues: dropped", { venues: ["bonding_curve"] }, {}, false],
  ["venues: fewer", { venues: ["bonding_curve", "launchswap"] }, { venues: ["launchswap"] }, true],
  ["mints_allow: subset", { mintsAllow: [W1, W2] }, { mintsAllow: [W1] }, true],
  ["mints_allow: other mint", { mintsAllow: [W1] }, { mintsAllow: [W3] }, false],
  ["mints_allow: dropped", { mintsAllow: [W1] }, {}, false],
  ["mints_deny: equal", { mintsDeny: [W1] }, { mintsDeny: [W1] }, true],
  ["mints_deny: more", { mintsDeny: [W1] }, { mintsDeny: [W1, W2] }, true],
  ["mints_deny: other", { mintsDeny: [W1] }, { mintsDeny: [W2] }, false],
  ["mints_deny: dropped", { mintsDeny: [W1] }, {}, false],
  ["destinations: [] kept", { destinationsAllow: [] }, { destinationsAllow: [] }, true],
  ["destinations: added", { destinationsAllow: [] }, { destinationsAllow: [W3] }, false],
  ["destinations: dropped", { destinationsAllow: [] }, {}, false],
];

describe("canManage: the target's policy", () => {
  for (const action of ACTIONS) {
    it.each(POLICIES)(`${action}: %s`, (_label, cp, tp, allowed) => {
      // For `policy`, the new policy equals the caller's own: only the target's current powers decide.
      const v = canManage(caller({ policy: cp }), other({ policy: tp }), change(action, cp));
      expect(verdictOf(v)).toBe(allowed ? "ok" : "403 powers");
    });
  }
});

describe("canManage: the policy set on another key", () => {
  it.each(POLICIES)("%s", (_label, cp, np, allowed) => {
    // The target is within the caller's powers (it has the caller's own policy); the new policy decides.
    const v = canManage(caller({ policy: cp }), other({ policy: cp }), { action: "policy", policy: np });
    expect(verdictOf(v)).toBe(allowed ? "ok" : "403 powers");
  });

  it("may widen a target up to the caller's own policy, never past it", () => {
    const c = caller({ policy: { maxSolPer24h: 2n * SOL } });
    const t = other({ policy: { maxSolPer24h: SOL } });
    expect(canManage(c, t, { action: "policy", policy: { maxSolPer24h: 2n * SOL } }).ok).toBe(true);
    const v = canManage(c, t, { action: "policy", policy: {} });
    expect(v).toEqual({
      ok: false,
      status: 403,
      rule: "powers",
      detail: "the policy may not be looser than this key's own: max_sol_per_24h",
    });
  });
});

describe("canManage: expiry", () => {
  const T = "2026-12-01T00:00:00.000Z";
  const table: [string | null, string | null, boolean][] = [
    [null, null, true],
    [null, T, true],
    [T, null, false],
    [T, "2026-11-30T23:59:59.999Z", true],
    [T, T, true],
    [T, "2026-12-01T00:00:00.001Z", false],
  ];
  for (const action of ACTIONS) {
    it.each(table)(`${action}: caller expires %s, target %s → allowed %s`, (ce, te, allowed) => {
      const v = canManage(caller({ expiresAt: ce }), other({ expiresAt: te }), change(action));
      expect(verdictOf(v)).toBe(allowed ? "ok" : "403 powers");
    });
  }
});

describe("canManage: self, root and the root key", () => {
  it("a sub-key never sets its own policy nor unfreezes itself; it may freeze or revoke itself", () => {
    const me = caller({ policy: { maxSolPer24h: SOL } });
    // Even a narrowing is refused: a key's limits are set by a key above it.
    expect(canManage(me, me, { action: "policy", policy: { maxSolPer24h: 1n } })).toEqual({
      ok: false,
      status: 403,
      rule: "powers",
      detail: KEY_POWERS.ownPolicy,
    });
    expect(canManage(me, me, { action: "policy", policy: {} })).toMatchObject({ rule: "powers" });
    expect(canManage(me, me, { action: "unfreeze" })).toEqual({
      ok: false,
      status: 403,
      rule: "powers",
      detail: KEY_POWERS.ownUnfreeze,
    });
    expect(canManage(me, me, { action: "freeze" }).ok).toBe(true);
    expect(canManage(me, me, { action: "revoke" }).ok).toBe(true);
  });

  it("no sub-key touches the root key, whatever its powers", () => {
    const strongest = caller({ scopes: [...SCOPES], wallets: null, policy: {}, expiresAt: null });
    for (const action of ["revoke", "freeze", "unfreeze", "policy"] as const) {
      expect(canManage(strongest, ROOT, change(action)), action).toEqual({
        ok: false,
        status: 403,
        rule: "powers",
        detail: KEY_POWERS.rootUntouchable(action === "policy" ? "set the policy of" : action),
      });
    }
  });

  it("the root key cannot revoke or freeze itself (400); it may unfreeze itself and set its own policy", () => {
    expect(canManage(ROOT, ROOT, { action: "revoke" })).toEqual({
      ok: false,
      status: 400,
      detail: "the root key cannot be revoked",
    });
    expect(canManage(ROOT, ROOT, { action: "freeze" })).toEqual({
      ok: false,
      status: 400,
      detail: KEY_POWERS.rootNotFreezable,
    });
    expect(canManage(ROOT, ROOT, { action: "unfreeze" }).ok).toBe(true);
    expect(canManage(ROOT, ROOT, { action: "policy", policy: {} }).ok).toBe(true);
  });

  it("the root key manages and creates any sub-key, its own policy notwithstanding", () => {
    const capped = { ...ROOT, policy: { maxSolPer24h: SOL } };
    const widest = other({ scopes: [...SCOPES], wallets: null, policy: {}, expiresAt: null });
    for (const r of [ROOT, capped])
      for (const action of ACTIONS) expect(canManage(r, widest, change(action)).ok, action).toBe(true);
  });

  it("every action and key kind: a sub-key without `keys` is refused by scope first", () => {
    for (const target of [ROOT, other(), caller()])
      for (const action of ACTIONS)
        expect(verdictOf(canManage(caller({ scopes: ["read", "trade"] }), target, change(action)))).toBe(
          "403 scope",
        );
  });

  it("lists every excess in one detail", () => {
    const v = canManage(
      caller({ scopes: ["keys", "trade"], wallets: [W1], policy: { maxSolPer24h: SOL }, expiresAt: null }),
      other({ scopes: ["trade", "transfer"], wallets: null, policy: {} }),
      { action: "freeze" },
    );
    expect(v).toEqual({
      ok: false,
      status: 403,
      rule: "powers",
      detail:
        "this key may not freeze a key with powers it lacks: scopes transfer; every wallet of the account " +
        "(this key is bound to wallets); a policy looser in max_sol_per_24h",
    });
  });
});
