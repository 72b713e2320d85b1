/**
 * Issue 29, finding 1: key powers only narrow. One pure rule decides every key-management action (create,
 * revoke, freeze, unfreeze, set policy) from the caller's and the target's powers, so no route compares them
 * its own way. The rules, in order:
 * - the caller holds the `keys` scope;
 * - the root key is above every sub-key: no sub-key touches it; the root key cannot revoke or freeze itself
 *   (the account freeze is that switch) but may unfreeze itself (clears an older flag) and set its own policy;
 * - the root key manages every sub-key of its account and creates any key (it holds every scope and wallet;
 *   its own policy binds only itself, and only it can change it);
 * - a sub-key creates only a key within its own powers, and touches only a key within its own powers: scopes
 *   a subset, wallets within its binding, a policy at least as strict (policy-narrows.ts), an expiry no later;
 * - a sub-key never sets its own policy and never unfreezes itself (it may freeze or revoke itself: that only
 *   narrows); a policy it sets on another key is at least as strict as its own.
 */
import { CUSTODY } from "./texts.js";
import type { Policy } from "./policy.js";
import { policyLoosenings } from "./policy-narrows.js";
import { hasScope, SCOPES, type Scope } from "./scopes.js";

/** What the rule reads of a key (the target of `create` is the key as it would be stored). */
export interface KeyPowers {
  /** The key's id; for `create`, any value (the new key has none yet). */
  id: number;
  root: boolean;
  /** Null: every scope (the root key). */
  scopes: readonly string[] | null;
  /** Null: every wallet of the account. */
  wallets: readonly string[] | null;
  policy: Policy;
  expiresAt: string | null;
}

/** One key-management action; `policy` carries the policy to be set. */
export type KeyChange =
  | { action: "create" }
  | { action: "revoke" }
  | { action: "freeze" }
  | { action: "unfreeze" }
  | { action: "policy"; policy: Policy };

export type KeyAction = KeyChange["action"];

/** Allowed, or refused with the status, the refusal's `rule` (403 only) and a detail. */
export type ManageVerdict =
  | { ok: true }
  | { ok: false; status: 403; rule: "powers" | "scope"; detail: string }
  | { ok: false; status: 400; detail: string };

/** The refusal texts of these rules (each listed in docs/decisions.md, "Issue 29: key powers"). */
export const KEY_POWERS = {
  rootNotFreezable:
    "the root key cannot be frozen; POST /v1/account/freeze stops every key of the account (the root key unfreezes it)",
  rootUntouchable: (verb: string) => `a sub-key may not ${verb} the root key`,
  ownPolicy: "a key may not change its own policy; a key with wider powers sets it",
  ownUnfreeze: "a key may not unfreeze itself; a key with wider powers unfreezes it",
  exceeds: (what: string, excess: string) => `${what}: ${excess}`,
} as const;

const VERBS: Record<KeyAction, string> = {
  create: "create",
  revoke: "revoke",
  freeze: "freeze",
  unfreeze: "unfreeze",
  policy: "set the policy of",
};

const ok = { ok: true } as const;

function powers(detail: string): ManageVerdict {
  return { ok: false, status: 403, rule: "powers", detail };
}

/**
 * What `target` holds that `caller` lacks, as phrases (empty: `caller`'s powers cover `target`'s): scopes
 * outside the caller's, wallets outside its binding (or none at all for an unbound target), policy fields
 * looser than the caller's policy, an expiry later than the caller's (or none).
 */
export function powersExceeding(caller: KeyPowers, target: KeyPowers): string[] {
  const out: string[] = [];
  // hasScope: a caller holding `trade` also holds `build` (scopes.ts).
  const scopes = (target.scopes ?? SCOPES).filter((s) => !hasScope(caller, s as Scope));
  if (scopes.length > 0) out.push(`scopes ${scopes.join(", ")}`);
  if (caller.wallets !== null) {
    if (target.wallets === null) out.push("every wallet of the account (this key is bound to wallets)");
    else {
      const wallets = target.wallets.filter((w) => !caller.wallets!.includes(w));
      if (wallets.length > 0) out.push(`wallets ${wallets.join(", ")}`);
    }
  }
  const looser = policyLoosenings(caller.policy, target.policy);
  if (looser.length > 0) out.push(`a policy looser in ${looser.join(", ")}`);
  if (caller.expiresAt !== null) {
    if (target.expiresAt === null) out.push(`no expiry (this key expires at ${caller.expiresAt})`);
    else if (Date.parse(target.expiresAt) > Date.parse(caller.expiresAt))
      out.push(`an expiry after ${caller.expiresAt}`);
  }
  return out;
}

/** Decides whether `caller` may apply `change` to `target` (for `create`, the key as it would be made). */
export function canManage(caller: KeyPowers, target: KeyPowers, change: KeyChange): ManageVerdict {
  if (caller.scopes !== null && !caller.scopes.includes("keys"))
    return { ok: false, status: 403, rule: "scope", detail: CUSTODY.missingScope("keys") };
  const verb = VERBS[change.action];
  if (change.action !== "create" && target.root) {
    if (!caller.root) return powers(KEY_POWERS.rootUntouchable(verb));
    if (change.action === "revoke") return { ok: false, status: 400, detail: CUSTODY.rootNotRevocable };
    if (change.action === "freeze") return { ok: false, status: 400, detail: KEY_POWERS.rootNotFreezable };
    return ok;
  }
  if (caller.root) return ok;
  const self = change.action !== "create" && caller.id === target.id;
  if (self && change.action === "policy") return powers(KEY_POWERS.ownPolicy);
  if (self && change.action === "unfreeze") return powers(KEY_POWERS.ownUnfreeze);
  if (self) return ok;
  const excess = powersExceeding(caller, target);
  if (excess.length > 0) {
    const what =
      change.action === "create"
        ? "a new key may not hold powers its creator lacks"
        : `this key may not ${verb} a key with powers it lacks`;
    return powers(KEY_POWERS.exceeds(what, excess.join("; ")));
  }
  if (change.action === "policy") {
    const looser = policyLoosenings(caller.policy, change.policy);
    if (looser.length > 0)
      return powers(
        KEY_POWERS.exceeds("the policy may not be looser than this key's own", looser.join(", ")),
      );
  }
  return ok;
}
