/**
 * POST /v1/transactions/send (issue 32): a transaction an outside wallet signed, checked to be the one built for
 * this key (same message bytes, signature verified), recorded as the key's trade execution and sent through the
 * service's relay like a managed trade (events, fill, history, positions).
 */
import type { Chain, ChainTransaction } from "../../chain/chain.js";
import { badRequest, SPEC } from "../../core/errors.js";
import { fieldOf, parseBooleanField, type RequestBody } from "../../core/request-fields.js";
import { TRADE_RULES } from "../../core/errors.js";
import type { Store } from "../../store/index.js";
import { submitRecorded } from "../execution/pipeline.js";
import { recordPending } from "../execution/records.js";
import type { SpendGuard } from "../execution/types.js";
import type { DryRun } from "../execution/dry-run.js";
import type { Fill } from "../../chain/fills.js";
import type { OutsideBuilds } from "./builds.js";
import { readSignedTransaction } from "./signed-transaction.js";
import { OUTSIDE } from "./texts.js";
import { OUTSIDE_NONCE } from "./nonce-texts.js";
import { refuseUnscopedLegs, type ScopeCheck } from "./leg-scope.js";

/** A send request: the signed transaction's text and the submission switches. */
export interface SendIntent {
  /** The signed transaction (a raced send: its first variant). */
  transaction: string;
  /** A raced send: the signed variants of one raced build, each raced over its own route. */
  transactions?: readonly string[];
  simulate: boolean;
  confirm: boolean;
}

/** Parses a send body (`transaction` base64, `simulate` and `confirm` default true). */
export function parseSendRequest(body: RequestBody): SendIntent {
  const variants = parseVariants(body);
  if (variants !== undefined) {
    if (fieldOf(body, ["transaction", "signed_transaction"]) !== undefined)
      throw badRequest(OUTSIDE_NONCE.transactionAndTransactions);
    return {
      transaction: variants[0]!,
      transactions: variants,
      simulate: parseBooleanField(fieldOf(body, ["simulate"]), true, TRADE_RULES.simulateBoolean),
      confirm: parseBooleanField(fieldOf(body, ["confirm"]), true, TRADE_RULES.confirmBoolean),
    };
  }
  const t = fieldOf(body, ["transaction", "signed_transaction"]);
  if (t === undefined || t === null || t === "") throw badRequest(OUTSIDE.transactionRequired);
  if (typeof t !== "string") throw badRequest(OUTSIDE.transactionMalformed);
  return {
    transaction: t,
    simulate: parseBooleanField(fieldOf(body, ["simulate"]), true, TRADE_RULES.simulateBoolean),
    confirm: parseBooleanField(fieldOf(body, ["confirm"]), true, TRADE_RULES.confirmBoolean),
  };
}

/** `transactions` (alias signed_transactions): 1 to 32 non-empty texts, or undefined when absent. */
function parseVariants(body: RequestBody): string[] | undefined {
  const v = fieldOf(body, ["transactions", "signed_transactions"]);
  if (v === undefined) return undefined;
  if (
    !Array.isArray(v) ||
    v.length === 0 ||
    v.length > 32 ||
    !v.every((t): t is string => typeof t === "string" && t !== "")
  )
    throw badRequest(OUTSIDE_NONCE.transactionsType);
  return v;
}

/** Collaborators of a send. */
export interface SendDeps {
  store: Pick<Store, "insertExecution" | "updateExecution">;
  chain: Pick<Chain, "assemble" | "submit" | "submitBundle"> & Partial<Pick<Chain, "rpc" | "relayTip">>;
  outsideBuilds: OutsideBuilds;
  spendGuard?: SpendGuard;
  dryRun?: DryRun;
  onRecordError?: (e: unknown) => void;
  /** Whether the request's key holds a scope (a create or bundle build is sent only by a key holding `create`). */
  holdsScope?: ScopeCheck;
}

/** The send answer. */
export interface SendResult {
  execution_id: string;
  signature: string;
  wallet: string;
  /** A trade's side (a create answers `kind: "create"` instead). */
  action?: "buy" | "sell";
  mint: string;
  confirmed: boolean;
  confirmation_status: string | null;
  fill?: Fill | null;
  [detail: string]: unknown;
}

/** Checks, records and sends a signed outside transaction for the key. */
export async function runSend(deps: SendDeps, apiKeyId: number, intent: SendIntent): Promise<SendResult> {
  const signed = readSignedTransaction(intent.transaction);
  // A dry run sends nothing: the build stays available for the real send.
  const build = await deps.outsideBuilds.take(apiKeyId, signed.message, deps.dryRun !== undefined);
  if (build === undefined || build.publicKey !== signed.feePayer) throw badRequest(OUTSIDE.notBuilt);
  // A create build records a create (its scope, its simulation text, its dev buy's fill); a bundle leg goes alone
  // nowhere (send-legs.ts).
  refuseUnscopedLegs(deps, [build]);
  const create = build.kind === "create";
  const guard = deps.spendGuard;
  // The key as it is now (frozen or revoked since the build: refused), and its caps on the built worst case.
  if (guard !== undefined) {
    await guard.beforeSign();
    const spend = guard.inspect?.(build.spendable);
    if (spend !== undefined) guard.signed(signed.signature, spend);
  }
  const executionId = await recordPending(
    deps.store,
    {
      apiKeyId,
      kind: create ? "create" : "trade",
      wallet: build.publicKey,
      signatures: [signed.signature],
      request: { ...build.request, simulate: intent.simulate, confirm: intent.confirm },
      lastValidBlockHeight: build.lastValidBlockHeight,
      computeUnitPriceMicroLamports: build.computeUnitPriceMicroLamports,
    },
    deps.dryRun,
    guard,
  );
  const tx: ChainTransaction = {
    signature: signed.signature,
    wire: signed.wire,
    computeUnitLimit: build.computeUnitLimit,
    computeUnitPriceMicroLamports: build.computeUnitPriceMicroLamports,
    tipAccount: null,
    lastValidBlockHeight: build.lastValidBlockHeight,
  };
  const { result, fill } = await submitRecorded(
    deps,
    executionId,
    tx,
    {
      // A create is always simulated first, as POST /v1/laser/create is.
      simulate: create || intent.simulate,
      confirm: intent.confirm,
      simulationFailedDetail: create ? SPEC.create.simulationFailed : SPEC.trade.simulationFailed,
    },
    build.details,
    build.fill === undefined
      ? { wallet: build.publicKey, mint: build.mint, side: build.action }
      : (build.fill ?? undefined),
  );
  return {
    ...build.details,
    execution_id: executionId,
    signature: result.signature,
    wallet: build.publicKey,
    ...(create ? { kind: "create" } : { action: build.action }),
    mint: build.mint,
    confirmed: result.confirmed,
    confirmation_status: intent.confirm ? result.confirmationStatus : null,
    ...(fill !== undefined ? { fill } : {}),
  };
}
