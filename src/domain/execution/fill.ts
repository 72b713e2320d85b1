/** Issue 22: reads the fill of a confirmed transaction (one getTransaction) for its response and record. */
import type { Chain } from "../../chain/chain.js";
import { fillOf, type Fill } from "../../chain/fills.js";
import { isObject } from "../../chain/json-rpc.js";
import type { ExecutionRecord } from "../../store/index.js";

/** Whose movements, of which mint, and whether the trade spent (buy) or received (sell) SOL. */
export interface FillRequest {
  wallet: string;
  mint: string | null;
  side: "buy" | "sell" | "none";
  /** The tip accounts the transaction may pay (a raced variant's route's, a bundle's); default the relay's. */
  tipAccounts?: readonly string[];
}

const ATTEMPTS = 3;
const SPACING_MS = 300;

/**
 * The fill, or null when the node cannot tell yet (a confirmed transaction is normally readable at once; a
 * lagging node gets two more tries). Never throws: the trade happened, whatever this read does.
 */
export async function readFill(
  chain: Partial<Pick<Chain, "rpc" | "relayTip">>,
  signature: string,
  request: FillRequest,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<Fill | null> {
  if (chain.rpc === undefined) return null;
  const tipAccounts = request.tipAccounts ?? chain.relayTip?.().accounts.map((a) => a.toBase58()) ?? [];
  const fillInput = { wallet: request.wallet, mint: request.mint, side: request.side, tipAccounts };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      const fill = fillOf(await chain.rpc.getTransactionJson(signature), fillInput);
      if (fill !== null) return fill;
    } catch {
      // Retried below; a read failure leaves the response without a fill, never fails it.
    }
    if (attempt + 1 < ATTEMPTS) await sleep(SPACING_MS);
  }
  return null;
}

/** One bundle leg's fill as the record keeps it (`response.fills`), the same on the request path and in reconciliation. */
export interface LegFill {
  index: number;
  wallet: string;
  side: string;
  fill: Fill;
}

/**
 * Issue 33: each leg's fill (its own transaction, its own wallet), read at once for every leg that asks; the
 * legs whose fill could not be read are left out (the record says what the chain told).
 */
export async function readLegFills(
  chain: Partial<Pick<Chain, "rpc" | "relayTip">>,
  signatures: readonly string[],
  requests: readonly (FillRequest | null)[],
): Promise<LegFill[]> {
  const read = await Promise.all(
    signatures.map(async (signature, index) => {
      const request = requests[index];
      if (request == null) return null;
      const fill = await readFill(chain, signature, request);
      return fill === null ? null : { index, wallet: request.wallet, side: request.side, fill };
    }),
  );
  return read.filter((x) => x !== null);
}

/**
 * Issue 33: whose fill each leg of a recorded bundle reads, for reconciliation, from what the record kept (the
 * legs with their wallets, the mint): the request path's `legFillRequests`. A create leg reads only with its dev
 * buy. Null when the record cannot say (no mint: a create-led bundle recorded pending, before its outcome).
 */
export function legFillRequestsOfRecord(
  record: Pick<ExecutionRecord, "kind" | "signatures" | "request" | "response">,
  tipAccounts: readonly string[],
): (FillRequest | null)[] | null {
  if (record.kind !== "bundle") return null;
  const request = isObject(record.request) ? record.request : {};
  const response = isObject(record.response) ? record.response : {};
  const mint = typeof response.mint === "string" ? response.mint : request.mint;
  const legs = Array.isArray(request.legs) ? request.legs : [];
  if (typeof mint !== "string" || legs.length !== record.signatures.length) return null;
  return legs.map((leg: unknown): FillRequest | null => {
    if (!isObject(leg) || typeof leg.wallet !== "string") return null;
    if (leg.type === "create" && leg.initial_buy == null) return null;
    const side = leg.type === "sell" ? "sell" : "buy";
    return { wallet: leg.wallet, mint, side, tipAccounts };
  });
}

/**
 * The fill request of a recorded execution, for reconciliation (issue 22): the request path's fill, built from
 * what the record kept. Only single-transaction trades and creates with a dev buy have one, as on the request
 * path (a bundle's legs: `legFillRequestsOfRecord`).
 */
export function fillRequestOfRecord(
  record: Pick<ExecutionRecord, "kind" | "wallet" | "signatures" | "request" | "response">,
): FillRequest | null {
  if ((record.kind !== "trade" && record.kind !== "create") || record.signatures.length !== 1) return null;
  const request = isObject(record.request) ? record.request : {};
  const response = isObject(record.response) ? record.response : {};
  // A create's fill is its dev buy (issue 33): none without one.
  if (record.kind === "create" && (request.initial_buy == null || typeof response.mint !== "string"))
    return null;
  const side = record.kind === "create" ? "buy" : request.action;
  // The response's mint is the resolved one (a request may name only a pool).
  const mint = typeof response.mint === "string" ? response.mint : request.mint;
  if ((side !== "buy" && side !== "sell") || typeof mint !== "string") return null;
  return { wallet: record.wallet, mint, side };
}
