/**
 * Idempotency keys on execution endpoints, as payment APIs have them. A request carrying `Idempotency-Key`
 * claims the key (per API key: the key that sent it, root or sub-key, issue 29; kept 24 hours) before
 * anything is signed: a repeat with the same request gets
 * the first response back byte for byte, a repeat with a different request 422, and a repeat while the first
 * is running 409 — in this process or in another one on the same database. A claim is a lease its process
 * keeps extending; when the process dies the lease lapses, and a later repeat either takes the key over (the
 * first request recorded nothing, so it sent nothing) or learns that the first was interrupted.
 */
import { createHash, randomUUID } from "node:crypto";
import type { IdempotencyRecord, IdempotencyStore } from "../../store/index.js";
import { ApiError, IDEMPOTENCY } from "../../core/errors.js";

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** How long a claim holds without being extended; its holder extends it every third of that. */
export const IDEMPOTENCY_LEASE_MS = 30_000;

/** The stored first response of a key. */
export type StoredResponse = NonNullable<IdempotencyRecord["response"]>;

/** A key this process holds for the request it is running. */
export interface IdempotencyClaim {
  id: number;
  owner: string;
  lockedUntilMs: number;
}

/** The narrow collaborators of the idempotency rules. */
export interface IdempotencyDeps {
  /** Everything but the purge, which the maintenance loop does. */
  store: Omit<IdempotencyStore, "purgeIdempotencyKeys">;
  nowMs: () => number;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/** The header's value as a key; 400 unless it is 1 to 255 printable ASCII characters. */
export function parseIdempotencyKey(header: unknown): string {
  if (typeof header !== "string" || !PRINTABLE_ASCII.test(header))
    throw new ApiError(400, IDEMPOTENCY.invalidKey);
  return header;
}

/** JSON with object keys sorted at every depth, so the same request always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What makes two requests "the same": method, route and body (key order and whitespace aside). */
export function requestFingerprint(method: string, route: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${route}\n${canonicalJson(body)}`)
    .digest("hex");
}

/** The outcome of `beginIdempotent`: run the request under the claim, or answer with the stored response. */
export type IdempotencyStart =
  { kind: "run"; claim: IdempotencyClaim } | { kind: "replay"; response: StoredResponse };

const ATTEMPTS = 3;

/**
 * Claims `key` for a request of key `keyId` (of account `apiKeyId`) with `fingerprint`, or says what to answer
 * instead. Throws 422 for a different request, 409 while the first is running (or when it was interrupted
 * after recording an execution). Another key's record of the same `key` is never seen (issue 29).
 */
export async function beginIdempotent(
  deps: IdempotencyDeps,
  apiKeyId: number,
  keyId: number,
  key: string,
  fingerprint: string,
): Promise<IdempotencyStart> {
  // A few attempts: a row can be released or expire between our insert and our read.
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const now = deps.nowMs();
    const owner = randomUUID();
    const lockedUntilMs = now + IDEMPOTENCY_LEASE_MS;
    const row = { apiKeyId, keyId, key, fingerprint, owner, lockedUntilMs, createdAtMs: now };
    const id = await deps.store.insertIdempotencyKey(row);
    if (id !== undefined) return { kind: "run", claim: { id, owner, lockedUntilMs } };
    const record = await deps.store.findIdempotencyKey(apiKeyId, keyId, key);
    if (record === undefined) continue;
    if (record.createdAtMs + IDEMPOTENCY_TTL_MS <= now) {
      await deps.store.deleteExpiredIdempotencyKey(record.id, now - IDEMPOTENCY_TTL_MS + 1);
      continue;
    }
    if (record.fingerprint !== fingerprint) throw new ApiError(422, IDEMPOTENCY.differentRequest);
    if (record.response !== null) return { kind: "replay", response: record.response };
    if (record.lockedUntilMs > now) throw new ApiError(409, IDEMPOTENCY.inProgress);
    // The holder stopped extending its claim: its process is gone. Take the key over, then look at what the
    // first request left behind (an execution is recorded before anything is sent).
    const held = { owner: record.owner, lockedUntilMs: record.lockedUntilMs };
    if (!(await deps.store.leaseIdempotencyKey(record.id, held, { owner, lockedUntilMs }))) continue;
    const claim = { id: record.id, owner, lockedUntilMs };
    // Executions carry the Idempotency-Key, not the key that sent it: another key's execution under the same
    // value also counts here, which can only turn a rerun into a 409 (never send twice).
    if (!(await deps.store.hasIdempotentExecution(apiKeyId, key))) return { kind: "run", claim };
    const interrupted = {
      status: 409,
      contentType: JSON_TYPE,
      body: JSON.stringify({ detail: IDEMPOTENCY.interrupted }),
    };
    await deps.store.completeIdempotencyKey(record.id, owner, interrupted);
    throw new ApiError(409, IDEMPOTENCY.interrupted);
  }
  throw new ApiError(409, IDEMPOTENCY.inProgress);
}

const JSON_TYPE = "application/json; charset=utf-8";

/** Extends a running claim; false when it was lost (another process took the key over). */
export async function extendIdempotent(deps: IdempotencyDeps, claim: IdempotencyClaim): Promise<boolean> {
  const next = { owner: claim.owner, lockedUntilMs: deps.nowMs() + IDEMPOTENCY_LEASE_MS };
  const ok = await deps.store.leaseIdempotencyKey(claim.id, claim, next);
  if (ok) claim.lockedUntilMs = next.lockedUntilMs;
  return ok;
}

/**
 * Ends a claim with the response sent. The response is kept for replay when the request recorded an execution
 * or succeeded; otherwise (refused before anything was signed) the key is released for a corrected retry.
 */
export async function finishIdempotent(
  deps: IdempotencyDeps,
  claim: IdempotencyClaim,
  response: StoredResponse,
  recordedExecution: boolean,
): Promise<void> {
  if (recordedExecution || response.status < 400) {
    await deps.store.completeIdempotencyKey(claim.id, claim.owner, response);
  } else {
    await deps.store.releaseIdempotencyKey(claim.id, claim.owner);
  }
}
