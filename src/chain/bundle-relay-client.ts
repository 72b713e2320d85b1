import { createHttpFetch } from "./http-fetch.js";
import { createJsonRpcTransport, isObject, toSafeNumber, type FetchLike } from "./json-rpc.js";
import { TransportError } from "./upstream-errors.js";

/** Jito inflight status values. */
export type InflightStatus = "Invalid" | "Pending" | "Failed" | "Landed";

/** One entry of getInflightBundleStatuses. */
export interface InflightBundleStatus {
  bundleId: string;
  status: InflightStatus;
  landedSlot: number | null;
}

/** One entry of getBundleStatuses (a landed bundle). */
export interface BundleStatus {
  bundleId: string;
  transactions: string[];
  slot: number;
  confirmationStatus: "processed" | "confirmed" | "finalized" | null;
  /** Error object; null when the node reported `{ "Ok": null }` or nothing. */
  err: unknown;
}

/** Options of the bundle relay client. */
export interface BundleRelayClientOptions {
  /** Block-engine base URL (paths `/api/v1/...` are appended). */
  url: string;
  timeoutMs: number;
  fetch?: FetchLike;
  headers?: Record<string, string>;
  /**
   * Path per method. Default: every method on `/api/v1/bundles`, which the block engine has always accepted
   * and which jito-js-rpc still uses; the method-named paths of the current docs can be set here.
   */
  paths?: Partial<
    Record<"sendBundle" | "getBundleStatuses" | "getInflightBundleStatuses" | "getTipAccounts", string>
  >;
}

/** A Jito-style bundle relay. */
export interface BundleRelayClient {
  /** Submits 1..5 signed transactions as one atomic bundle; resolves to the bundle id (64 hex). */
  sendBundle(wires: Uint8Array[]): Promise<string>;
  /** Landed statuses; null entries for bundles not (yet) found. */
  getBundleStatuses(ids: string[]): Promise<(BundleStatus | null)[]>;
  getInflightBundleStatuses(ids: string[]): Promise<(InflightBundleStatus | null)[]>;
  getTipAccounts(): Promise<string[]>;
}

const DEFAULT_PATH = "/api/v1/bundles";

/** Builds the bundle relay client (no retries: status polling is the caller's loop). */
export function createBundleRelayClient(options: BundleRelayClientOptions): BundleRelayClient {
  // A send repeated after its connection died unanswered carries the same signed transactions: a bundle of
  // them lands once at most; status reads are harmless to repeat.
  const transport = createJsonRpcTransport({
    ...options,
    url: options.url.replace(/\/+$/, ""),
    fetch: options.fetch ?? createHttpFetch({ retryUnanswered: true }),
  });
  const path = (m: keyof NonNullable<BundleRelayClientOptions["paths"]>) =>
    options.paths?.[m] ?? DEFAULT_PATH;

  return {
    async sendBundle(wires) {
      if (wires.length < 1 || wires.length > 5) throw new RangeError("a bundle holds 1 to 5 transactions");
      const res = await transport.call(
        "sendBundle",
        [wires.map((w) => Buffer.from(w).toString("base64")), { encoding: "base64" }],
        path("sendBundle"),
      );
      if (typeof res !== "string") throw new TransportError("sendBundle", "result is not a bundle id");
      return res;
    },
    async getBundleStatuses(ids) {
      const res = await transport.call("getBundleStatuses", [ids], path("getBundleStatuses"));
      return alignById(ids, contextList(res), decodeBundleStatus);
    },
    async getInflightBundleStatuses(ids) {
      const res = await transport.call("getInflightBundleStatuses", [ids], path("getInflightBundleStatuses"));
      return alignById(ids, contextList(res), decodeInflight);
    },
    async getTipAccounts() {
      const res = await transport.call("getTipAccounts", [], path("getTipAccounts"));
      if (!Array.isArray(res) || !res.every((a) => typeof a === "string")) {
        throw new TransportError("getTipAccounts", "result is not a list of addresses");
      }
      return res as string[];
    },
  };
}

// The block engine's miss shape varies (null result, empty value, null entries); all mean "not found".
function contextList(res: unknown): unknown[] {
  if (res === null || res === undefined) return [];
  if (isObject(res) && Array.isArray(res.value)) return res.value;
  if (isObject(res) && res.value === null) return [];
  throw new TransportError("bundle status", "result lacks context/value");
}

function alignById<T extends { bundleId: string }>(
  ids: string[],
  entries: unknown[],
  decode: (e: Record<string, unknown>) => T,
): (T | null)[] {
  const byId = new Map<string, T>();
  for (const e of entries) {
    if (isObject(e)) {
      const d = decode(e);
      byId.set(d.bundleId, d);
    }
  }
  return ids.map((id) => byId.get(id) ?? null);
}

function decodeInflight(e: Record<string, unknown>): InflightBundleStatus {
  const status = e.status;
  if (status !== "Invalid" && status !== "Pending" && status !== "Failed" && status !== "Landed") {
    throw new TransportError("getInflightBundleStatuses", `unknown status ${String(status)}`);
  }
  return {
    bundleId: String(e.bundle_id),
    status,
    landedSlot: e.landed_slot == null ? null : toSafeNumber(e.landed_slot, "landed_slot"),
  };
}

function decodeBundleStatus(e: Record<string, unknown>): BundleStatus {
  const level = e.confirmation_status ?? e.confirmationStatus;
  const err = e.err;
  const ok = err == null || (isObject(err) && "Ok" in err && Object.keys(err).length === 1);
  return {
    bundleId: String(e.bundle_id),
    transactions: Array.isArray(e.transactions) ? e.transactions.map(String) : [],
    slot: e.slot == null ? 0 : toSafeNumber(e.slot, "slot"),
    confirmationStatus:
      level === "processed" || level === "confirmed" || level === "finalized" ? level : null,
    err: ok ? null : err,
  };
}
