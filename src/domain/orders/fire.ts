/**
 * Firing one claimed order: the key's custody checked again as for a request (fire-custody.ts: key alive and
 * unfrozen, wallet binding, policy rules, 24 h pre-check, then record-time reservation and the spend guard),
 * then the trade service itself (the execution pipeline: record before send, submit, confirm) on the warm
 * venue state, with the order's fees; the execution's Idempotency-Key is `order:<id>:<attempt>`, so a restart
 * finds what an attempt recorded and never sends it twice. An order of the engine is claimed in the same commit
 * as its execution record (RecordClaim): the claim and the record are both written, or neither, and nothing is
 * sent before that commit.
 */
import type { Chain } from "../../chain/chain.js";
import { withRequestFees } from "../../chain/request-fees.js";
import { extend } from "../../core/extend.js";
import { overlay } from "../../core/overlay.js";
import type { FeeBounds } from "../../core/fee-fields.js";
import type { LiveCheck, OrderRecord, OrderTransition, Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { answerOf } from "../execution/failure.js";
import {
  fireCustody,
  keyRefusal,
  liveCheckOf,
  type FireCustody,
  type FireCustodyDeps,
  type FireRefusal,
} from "../keys/fire-custody.js";
import { spendPlanOf } from "../keys/spend.js";
import { planTradeSpend } from "../trade/kind.js";
import { parseTradeRequest } from "../trade/request.js";
import { runTrade } from "../trade/service.js";
import type { VenueState } from "../watch/venue-state.js";
import type { OrderSpec } from "./model.js";
import type { SnapshotView } from "./custody-snapshots.js";

/** Collaborators of a fire. */
export interface FireDeps {
  store: Store;
  chain: Chain;
  vault: Pick<Vault, "withKeypair">;
  venues: Pick<VenueState, "lookup" | "afterRead">;
  custody: Omit<FireCustodyDeps, "store">;
  /** The configured relay tip (0 when the relay takes none) and the fee bounds. */
  relayTipLamports: bigint;
  fees: FeeBounds;
  onRecordError?: (e: unknown) => void;
}

/** How a fire ended. */
export type FireOutcome =
  /** Its claim lost (another process fired the order, or it changed): nothing was recorded nor sent. */
  | { kind: "lost" }
  | { kind: "filled"; executionId: string }
  /** Sent, not confirmed yet (timeout or submitted): reconciliation settles the execution. */
  | { kind: "pending"; executionId: string }
  | { kind: "refused"; refusal: FireRefusal }
  /** Refused or failed; `executionId` when something was recorded (sent or not). */
  | {
      kind: "failed";
      detail: string;
      status: number;
      executionId: string | null;
      extra: Record<string, unknown>;
    };

/** The Idempotency-Key of an order's attempt. */
export const orderAttemptKey = (orderId: string, attempt: number): string => `order:${orderId}:${attempt}`;

/** The trade request an order sends: the same body POST /v1/trades/execute takes. */
export function tradeBody(spec: OrderSpec, wallet: string): Record<string, unknown> {
  return {
    action: spec.side,
    mint: spec.mint,
    amount: spec.amountText,
    denominated_in_sol: spec.side === "buy",
    slippage_bps: Number(spec.slippageBps),
    wallet,
    // A trigger is about time: no simulation round trip; the slippage bound protects the trade on a fast move.
    simulate: false,
    confirm: true,
  };
}

/** The order's own fee fields as the request-fee overlay takes them. */
export function orderFees(spec: OrderSpec): { priorityFeeLamports?: bigint; tipLamports?: bigint } {
  return {
    ...(spec.priorityFeeLamports !== null ? { priorityFeeLamports: spec.priorityFeeLamports } : {}),
    ...(spec.tipLamports !== null ? { tipLamports: spec.tipLamports } : {}),
  };
}

/** Whose order it is: the key whose custody a fire checks, and the wallet that signs. */
export interface OrderOwner {
  readonly accountId: number;
  readonly keyId: number;
  readonly wallet: string;
}

/**
 * The trade an order sends for `spec` from `wallet`, parsed once, with its fee fields and the spend plan the key's
 * policy judges (the fire, an order's creation and a snipe's creation read the same plan).
 */
export function orderTrade(spec: OrderSpec, wallet: string, relayTipLamports: bigint) {
  const fees = orderFees(spec);
  const intent = parseTradeRequest(tradeBody(spec, wallet));
  return { fees, intent, plan: spendPlanOf("trade", planTradeSpend, intent, relayTipLamports, fees) };
}

/**
 * The claim an order's fire makes in the commit that records its execution (the store's claimOrderRecording):
 * `transition` is asked for at that commit (the lease runs from then) with the keys whose state it is conditional
 * on (claimingStore), `onClaimed` told of the claimed order.
 */
export interface RecordClaim {
  readonly transition: (live: LiveCheck) => OrderTransition;
  readonly onClaimed: (order: OrderRecord) => void;
}

/** The claim of a fire lost at its record's commit: nothing was written. */
export class ClaimLostError extends Error {
  constructor() {
    super("order claim lost");
    this.name = "ClaimLostError";
  }
}

/**
 * `store` whose execution records claim the order in the same commit (see RecordClaim), on the condition that
 * the keys the fire decided on (`decided()`: the firing key, the keys above it, the root, fireCustody's liveCheckOf,
 * and their versions) are unchanged and neither revoked nor frozen by then, and that the wallet it signs with is
 * still there: the fire's key and wallet check is that commit, not a read before signing. `readWallet`: where
 * the wallet comes from (default the store's findWallet, read now).
 */
export function claimingStore(
  store: Store,
  claim: RecordClaim,
  decided: () => Omit<LiveCheck, "walletId"> | undefined,
  readWallet: Store["findWallet"] = (accountId, publicKey) => store.findWallet(accountId, publicKey),
): Store {
  let walletId: number | undefined;
  const record = async (
    e: Parameters<Store["insertExecution"]>[0],
    reservation: Parameters<Store["insertExecutionReserving"]>[1] | null,
  ) => {
    const keys = decided();
    // Deny by default: the guard did not re-read the key, so no claim commits without the key check.
    if (keys === undefined) throw new Error("an order's claim needs its key check");
    if (walletId === undefined) throw new Error("an order's claim needs its wallet check");
    const r = await store.claimOrderRecording(claim.transition({ ...keys, walletId }), e, reservation);
    if (r === undefined) throw new ClaimLostError();
    claim.onClaimed(r.order);
    return r.execution;
  };
  return overlay(store, {
    findWallet: async (accountId, publicKey) => {
      const w = await readWallet(accountId, publicKey);
      walletId = w?.id;
      return w;
    },
    insertExecution: (e) => record(e, null),
    insertExecutionReserving: (e, reservation) => record(e, reservation),
  });
}

/** A fire's custody verdict, possibly still under way, and the trade it judged (parsed once for both). */
export interface EarlyCustody {
  readonly trade: ReturnType<typeof orderTrade>;
  readonly verdict: Promise<FireCustody | FireRefusal>;
}

/**
 * The key's custody for firing `spec` now (key alive and unfrozen, wallet binding, policy, 24 h pre-check);
 * with `claim`, the execution record it lets the fire write claims the order in the same commit. `trade`: the
 * order's trade when prepared ahead (prepared-trades.ts). `rows`: where the key and the wallet come from (a fire's
 * view of custody-snapshots.ts; default: read now).
 */
export function orderCustody(
  deps: FireDeps,
  owner: OrderOwner,
  spec: OrderSpec,
  claim?: RecordClaim,
  trade: ReturnType<typeof orderTrade> = orderTrade(spec, owner.wallet, deps.relayTipLamports),
  rows?: Pick<SnapshotView, "readKey" | "readWallet">,
): EarlyCustody {
  let decided: Omit<LiveCheck, "walletId"> | undefined;
  const store =
    claim === undefined ? deps.store : claimingStore(deps.store, claim, () => decided, rows?.readWallet);
  const verdict = fireCustody(
    extend(deps.custody, rows === undefined ? { store } : { store, readKey: rows.readKey }),
    { accountId: owner.accountId, keyId: owner.keyId },
    "trade",
    trade.plan,
    owner.wallet,
    claim === undefined ? "sign" : "record",
  );
  if (claim === undefined) return { trade, verdict };
  return {
    trade,
    verdict: verdict.then((v) => {
      if (!("rule" in v)) decided = liveCheckOf(v.ctx.key);
      return v;
    }),
  };
}

/**
 * Fires a claimed order (attempt `order.attempt`, or the Idempotency-Key `key` a snipe names per mint); never
 * throws for a refusal or a chain failure. `early`: its custody, already under way (see orderCustody).
 */
export async function fireOrder(
  deps: FireDeps,
  order: Pick<OrderRecord, "id" | "accountId" | "keyId" | "wallet" | "attempt">,
  spec: OrderSpec,
  key = orderAttemptKey(order.id, order.attempt),
  early?: EarlyCustody,
): Promise<FireOutcome> {
  // Parsed once: the plan and the trade read the same intent (as an HTTP request does).
  const started = early ?? orderCustody(deps, order, spec);
  const { fees, intent } = started.trade;
  const custody = await started.verdict;
  if ("rule" in custody) return { kind: "refused", refusal: custody };
  const store = overlay(custody.store, {
    insertExecution: (e) => custody.store.insertExecution(extend(e, { idempotencyKey: key })),
  });
  let executionId: string | null = null;
  try {
    const r = await runTrade(
      {
        store,
        chain: withRequestFees(deps.chain, fees),
        vault: deps.vault,
        venues: deps.venues,
        checkVenue: custody.checkVenue,
        spendGuard: custody.guard,
        ...(deps.onRecordError !== undefined ? { onRecordError: deps.onRecordError } : {}),
      } as Parameters<typeof runTrade>[0],
      order.accountId,
      intent,
    );
    executionId = r.execution_id;
    return r.confirmed ? { kind: "filled", executionId } : { kind: "pending", executionId };
  } catch (e) {
    // The claim commits only while the key lives: a lost claim may be the key's refusal (frozen, revoked meanwhile).
    if (e instanceof ClaimLostError) {
      const refusal = keyRefusal(
        await deps.store.findKey(order.accountId, order.keyId),
        "trade",
        deps.custody.clock(),
      );
      return refusal === null ? { kind: "lost" } : { kind: "refused", refusal };
    }
    const answer = answerOf(e);
    if (answer === undefined) throw e;
    const id = answer.extra.execution_id;
    const rule = answer.extra.rule;
    if (answer.status === 403 && typeof rule === "string" && typeof id !== "string")
      return { kind: "refused", refusal: { rule, detail: answer.detail } };
    return {
      kind: "failed",
      detail: answer.detail,
      status: answer.status,
      executionId: typeof id === "string" ? id : executionId,
      extra: answer.extra,
    };
  }
}
