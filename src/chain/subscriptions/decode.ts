/** Pure decoding of PubSub notifications into the layer's update types. */
import { PublicKey } from "@solana/web3.js";
import type { AccountInfo } from "../rpc-client.js";

/** A JSON-RPC message from the PubSub endpoint (response or notification). */
export interface PubSubMessage {
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
  method?: unknown;
  params?: { subscription?: unknown; result?: unknown };
}

/** The slot a notification's result carries (context.slot, or slot for slotNotification); null when none. */
export function notificationSlot(method: string, result: unknown): number | null {
  const r = result as { slot?: unknown; context?: { slot?: unknown } } | null;
  const s = method === "slotNotification" ? r?.slot : r?.context?.slot;
  return typeof s === "number" ? s : null;
}

const OWNER_KEYS_MAX = 256;

/**
 * Owner keys by base-58, for one subscription layer: every notification names its account's owner, and the
 * owners are a handful of programs, while building a PublicKey from base-58 (bn.js) costs more than the rest
 * of an account's decoding. Bounded: cleared when it passes 256 distinct owners.
 */
export function ownerKeys(): (base58: string) => PublicKey {
  const keys = new Map<string, PublicKey>();
  return (base58) => {
    let key = keys.get(base58);
    if (key === undefined) {
      key = new PublicKey(base58);
      if (keys.size >= OWNER_KEYS_MAX) keys.clear();
      keys.set(base58, key);
    }
    return key;
  };
}

/**
 * The account of an accountNotification value (base64 encoding); throws on another shape. `owner` turns the
 * owner's base-58 into its key (a shared PublicKey from ownerKeys; PublicKeys are never mutated).
 */
export function decodeAccountValue(value: unknown, owner: (base58: string) => PublicKey): AccountInfo {
  const v = value as { lamports?: unknown; owner?: unknown; data?: unknown; executable?: unknown } | null;
  if (v === null || typeof v !== "object") throw new Error("accountNotification without an account");
  const data = v.data;
  if (!Array.isArray(data) || typeof data[0] !== "string" || data[1] !== "base64") {
    throw new Error("accountNotification data is not base64");
  }
  if (typeof v.lamports !== "number" && typeof v.lamports !== "bigint") throw new Error("bad lamports");
  if (typeof v.owner !== "string") throw new Error("bad owner");
  return {
    // Above 2^53 lamports JSON numbers lose precision; no account holds that much SOL.
    lamports: BigInt(v.lamports),
    owner: owner(v.owner),
    data: Buffer.from(data[0], "base64"),
    executable: v.executable === true,
  };
}

/** The fields of a logsNotification value. */
export function decodeLogsValue(value: unknown): { signature: string; err: unknown; logs: string[] } {
  const v = value as { signature?: unknown; err?: unknown; logs?: unknown } | null;
  if (v === null || typeof v !== "object" || typeof v.signature !== "string") {
    throw new Error("logsNotification without a signature");
  }
  const logs = Array.isArray(v.logs) ? v.logs.filter((l): l is string => typeof l === "string") : [];
  return { signature: v.signature, err: v.err ?? null, logs };
}
