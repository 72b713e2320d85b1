/** The submission relay (Helius Sender shape): sendTransaction only, skipPreflight required, tip required. */
import type { Ledger } from "../ledger/index.js";
import { staticTipLamports } from "../ledger/wire.js";
import { TransactionRejected } from "../ledger/index.js";
import { RpcError } from "./json.js";
import type { RelayLog } from "./relay-log.js";
import { decodeParam } from "./rpc-methods.js";
import type { RpcHandler } from "./rpc-methods.js";
import type { Submitter } from "./submitter.js";
import { rejectionToRpcError } from "./submitter.js";

/** Relay settings. */
export interface RelayConfig {
  tipAccounts: string[];
  minTipLamports: bigint;
  /** Where every decodable send is logged (admin route /admin/relay/signatures). */
  log?: RelayLog;
}

function invalidRequest(detail: string): RpcError {
  // Helius Sender answers HTTP 400 {"code":-32602,"message":"Invalid request"}; the detail says why.
  return new RpcError(-32602, `Invalid request: ${detail}`, undefined, 400);
}

/** The relay's method table. */
export function relayMethods(
  ledger: Pick<Ledger, "decodeClientTransaction">,
  submitter: Submitter,
  cfg: RelayConfig,
): Map<string, RpcHandler> {
  const tipSet = new Set(cfg.tipAccounts);
  const m = new Map<string, RpcHandler>();
  m.set("getHealth", () => "ok");
  m.set("sendTransaction", (p) => {
    const opts = (p[1] ?? {}) as { encoding?: string; skipPreflight?: unknown };
    if (opts.skipPreflight !== true) throw invalidRequest("skipPreflight must be true");
    const wire = decodeParam(p[0], opts.encoding);
    let tip: bigint;
    let signature: string;
    try {
      // Decoded through the ledger: its pre-check (and execution) reuse this decoding of the same bytes.
      const decoded = ledger.decodeClientTransaction(wire);
      signature = decoded.id;
      tip = staticTipLamports(decoded.tx, tipSet);
    } catch (e) {
      if (e instanceof TransactionRejected) throw rejectionToRpcError(e);
      throw e;
    }
    try {
      if (tip < cfg.minTipLamports) {
        throw invalidRequest(
          `transaction must transfer at least ${cfg.minTipLamports} lamports to a tip account (found ${tip})`,
        );
      }
      const result = submitter.submit(wire, false);
      cfg.log?.record(signature, true);
      return result;
    } catch (e) {
      cfg.log?.record(signature, false);
      throw e;
    }
  });
  return m;
}
