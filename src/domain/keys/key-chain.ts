/**
 * Issue 29 (key chains): a sub-key's powers stay within its creator's over time. Every key remembers the
 * sub-key that created it (`createdBy`; null = the root key), and the store reads a key's ancestors with it.
 * At request time a key is held to its own policy narrowed by every ancestor's (`effectivePolicy`), refused
 * when an ancestor is revoked, expired or frozen (`chainRefusal`), and its 24 h spend is charged to every
 * capped ancestor too (`ancestorCharges`). The root key is above every chain and never part of one: its own
 * policy binds only itself (docs/decisions.md, "Issue 29: key powers").
 */
import { ApiError } from "../../core/errors.js";
import type { KeyRecord, SpendCharge } from "../../store/index.js";
import { storedPolicy, type Policy } from "./policy.js";
import { CUSTODY } from "./texts.js";

type Cap = "maxSolPerExecution" | "maxSolPer24h" | "maxPriorityFeeLamports" | "maxTipLamports";
const CAPS: readonly Cap[] = [
  "maxSolPerExecution",
  "maxSolPer24h",
  "maxPriorityFeeLamports",
  "maxTipLamports",
];

/** Texts of the chain's refusals (docs/decisions.md, "Issue 29: key chains"). */
export const KEY_CHAIN = {
  ancestorFrozen: (id: number) => `API key is frozen (key ${id}, above it, is frozen)`,
} as const;

function intersect<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): T[] | undefined {
  if (a === undefined) return b === undefined ? undefined : [...b];
  if (b === undefined) return [...a];
  return a.filter((x) => b.includes(x));
}

/**
 * The policy holding under both `a` and `b` (pure): each cap the smaller of the two; `venues`, `mints_allow`,
 * `destinations_allow` the intersection when both have one (possibly empty: nothing allowed), else the one
 * present; `mints_deny` the union. A field neither has stays absent (does not restrict).
 */
export function intersectPolicies(a: Policy, b: Policy): Policy {
  const out: Policy = {};
  for (const f of CAPS) {
    const x = a[f];
    const y = b[f];
    const v = x === undefined ? y : y === undefined ? x : x < y ? x : y;
    if (v !== undefined) out[f] = v;
  }
  const venues = intersect(a.venues, b.venues);
  if (venues !== undefined) out.venues = venues;
  const allow = intersect(a.mintsAllow, b.mintsAllow);
  if (allow !== undefined) out.mintsAllow = allow;
  const dest = intersect(a.destinationsAllow, b.destinationsAllow);
  if (dest !== undefined) out.destinationsAllow = dest;
  if (a.mintsDeny !== undefined || b.mintsDeny !== undefined)
    out.mintsDeny = [...new Set([...(a.mintsDeny ?? []), ...(b.mintsDeny ?? [])])];
  return out;
}

/**
 * The key's ancestors, creator first, checked to be its whole chain up to the root key: each names the
 * next one's creator and the last was made by the root key. Null when they were not read or the chain is
 * broken (a row missing or of another account), which every caller refuses.
 */
export function verifiedAncestors(key: KeyRecord): readonly KeyRecord[] | null {
  if (key.root || key.createdBy === null) return [];
  const chain = key.ancestors;
  if (chain === undefined || chain.length === 0) return null;
  let expected: number | null = key.createdBy;
  for (const a of chain) {
    if (a.id !== expected || a.root || a.accountId !== key.accountId) return null;
    expected = a.createdBy;
  }
  return expected === null ? chain : null;
}

/** `verifiedAncestors`, or an error: a key whose chain could not be read is never used (deny by default). */
function ancestorsOrThrow(key: KeyRecord): readonly KeyRecord[] {
  const chain = verifiedAncestors(key);
  if (chain === null) throw new Error(`custody: key ${key.id} was read without its chain of creators`);
  return chain;
}

/** The key's policy at request time: its own narrowed by every ancestor's (the root key's never counts). */
export function effectivePolicy(key: KeyRecord): Policy {
  let policy = storedPolicy(key.policy);
  for (const a of ancestorsOrThrow(key)) policy = intersectPolicies(policy, storedPolicy(a.policy));
  return policy;
}

/** The ancestors with a `max_sol_per_24h`, each under its own cap: what a reservation also charges. */
export function ancestorCharges(key: KeyRecord): SpendCharge[] {
  const out: SpendCharge[] = [];
  for (const a of ancestorsOrThrow(key)) {
    const cap = storedPolicy(a.policy).maxSolPer24h;
    if (cap !== undefined) out.push({ keyId: a.id, capLamports: cap });
  }
  return out;
}

/**
 * The refusal an ancestor's state gives the key at `now`, or null: a revoked one (or a chain that cannot be
 * read) → 401 as if the key were revoked, an expired one → 401 expired, a frozen one → 403 `frozen`.
 * Revocations and expiries are looked at first, as for the key itself.
 */
export function chainRefusal(key: KeyRecord, now: Date): ApiError | null {
  const chain = verifiedAncestors(key);
  if (chain === null) return new ApiError(401, CUSTODY.keyRevoked);
  for (const a of chain) {
    if (a.revokedAt !== null) return new ApiError(401, CUSTODY.keyRevoked);
    if (a.expiresAt !== null && Date.parse(a.expiresAt) <= now.getTime())
      return new ApiError(401, CUSTODY.keyExpired);
  }
  const frozen = chain.find((a) => a.frozen);
  return frozen === undefined
    ? null
    : new ApiError(403, KEY_CHAIN.ancestorFrozen(frozen.id), { rule: "frozen" });
}
