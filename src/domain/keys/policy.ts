/** A key's spend policy: strict parsing of `PUT /v1/keys/{id}/policy`, storage form and wire form. */
import { parseAddress } from "../../core/addresses.js";
import { parseNonNegativeInteger, parseSolAmount, solText } from "../../core/amounts.js";
import { badRequest } from "../../core/errors.js";
import { CUSTODY, KEY_POLICY } from "./texts.js";

import { VENUES, type Venue } from "../../core/venues.js";

export { VENUES, type Venue };

/** A validated policy; absent fields do not restrict. */
export interface Policy {
  maxSolPerExecution?: bigint;
  maxSolPer24h?: bigint;
  maxPriorityFeeLamports?: bigint;
  maxTipLamports?: bigint;
  venues?: Venue[];
  mintsAllow?: string[];
  mintsDeny?: string[];
  destinationsAllow?: string[];
}

/** The policy rule names, as they appear in refusals' `rule`. */
export type PolicyRule =
  | "max_sol_per_execution"
  | "max_sol_per_24h"
  | "max_priority_fee_lamports"
  | "max_tip_lamports"
  | "venues"
  | "mints_allow"
  | "mints_deny"
  | "destinations_allow";

/** The fields a policy may set (and a 403 `rule` may name). */
export const POLICY_FIELDS: ReadonlySet<string> = new Set<string>([
  "max_sol_per_execution",
  "max_sol_per_24h",
  "max_priority_fee_lamports",
  "max_tip_lamports",
  "venues",
  "mints_allow",
  "mints_deny",
  "destinations_allow",
]);
const MAX_LIST = 100;

function solField(body: Record<string, unknown>, name: string): bigint | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  const text = KEY_POLICY.policySol(name);
  return parseSolAmount(v, { type: text, invalid: text, decimals: text, positive: text, tooLarge: text });
}

function lamportsField(body: Record<string, unknown>, name: string): bigint | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  const n = parseNonNegativeInteger(v, KEY_POLICY.policyLamports(name));
  if (n > 18_446_744_073_709_551_615n) throw badRequest(KEY_POLICY.policyU64(name));
  return n;
}

function addressList(body: Record<string, unknown>, name: string): string[] | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MAX_LIST)
    throw badRequest(KEY_POLICY.policyAddressList(name, MAX_LIST));
  const out = v.map((a, i) => parseAddress(a, KEY_POLICY.policyAddress(name, i)));
  return [...new Set(out)];
}

/** Parses a policy body (`{}` clears); unknown fields, wrong types and contradictions are 400 with a detail. */
export function parsePolicy(body: unknown): Policy {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badRequest(CUSTODY.bodyObject);
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!POLICY_FIELDS.has(k)) throw badRequest(CUSTODY.unknownField(k));
  const p: Policy = {};
  const perExec = solField(b, "max_sol_per_execution");
  if (perExec !== undefined) p.maxSolPerExecution = perExec;
  const per24h = solField(b, "max_sol_per_24h");
  if (per24h !== undefined) p.maxSolPer24h = per24h;
  const fee = lamportsField(b, "max_priority_fee_lamports");
  if (fee !== undefined) p.maxPriorityFeeLamports = fee;
  const tip = lamportsField(b, "max_tip_lamports");
  if (tip !== undefined) p.maxTipLamports = tip;
  if (b.venues !== undefined && b.venues !== null) {
    const v = b.venues;
    if (!Array.isArray(v) || v.length === 0 || v.some((x) => !VENUES.includes(x as Venue)))
      throw badRequest(KEY_POLICY.policyVenues);
    p.venues = [...new Set(v as Venue[])];
  }
  const allow = addressList(b, "mints_allow");
  if (allow !== undefined) p.mintsAllow = allow;
  const deny = addressList(b, "mints_deny");
  if (deny !== undefined) p.mintsDeny = deny;
  const dest = addressList(b, "destinations_allow");
  if (dest !== undefined) p.destinationsAllow = dest;
  if (allow !== undefined && deny !== undefined && allow.some((m) => deny.includes(m)))
    throw badRequest(KEY_POLICY.policyMintsOverlap);
  if (perExec !== undefined && per24h !== undefined && perExec > per24h)
    throw badRequest(KEY_POLICY.policyPerExecutionOverDaily);
  return p;
}

/** The policy as stored and returned: snake_case, SOL as decimal text, lamports as integer text. */
export function policyView(p: Policy): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p.maxSolPerExecution !== undefined) out.max_sol_per_execution = solText(p.maxSolPerExecution);
  if (p.maxSolPer24h !== undefined) out.max_sol_per_24h = solText(p.maxSolPer24h);
  if (p.maxPriorityFeeLamports !== undefined)
    out.max_priority_fee_lamports = p.maxPriorityFeeLamports.toString();
  if (p.maxTipLamports !== undefined) out.max_tip_lamports = p.maxTipLamports.toString();
  if (p.venues !== undefined) out.venues = p.venues;
  if (p.mintsAllow !== undefined) out.mints_allow = p.mintsAllow;
  if (p.mintsDeny !== undefined) out.mints_deny = p.mintsDeny;
  if (p.destinationsAllow !== undefined) out.destinations_allow = p.destinationsAllow;
  return out;
}

/** The stored policy back as a Policy (it was validated before it was stored). */
export function storedPolicy(stored: Record<string, unknown> | null): Policy {
  return stored === null ? {} : parsePolicy(stored);
}
