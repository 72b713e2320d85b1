/** The order record the orders store tests insert (the rest they share with every store test: two-engines.ts). */
import {
  isoNoZone,
  type KeyRecord,
  type LiveCheck,
  type NewExecution,
  type NewOrder,
  type OrderTransition,
  type SpendReservation,
  type Store,
} from "../../src/store/index.js";
import { liveCheckOf } from "../../src/domain/keys/fire-custody.js";
import { unique } from "./two-engines.js";

export { newAccount, storeTestEngines as orderTestEngines, unique } from "./two-engines.js";

/** An open take-profit of `accountId`'s root key, with `over` on top. */
export const order = (accountId: number, over: Partial<NewOrder> = {}): NewOrder => ({
  id: `ord_${unique()}`,
  accountId,
  keyId: accountId,
  kind: "take_profit",
  side: "sell",
  mint: "Mint1111",
  wallet: "Wallet1111",
  spec: "{}",
  expiresAt: null,
  peak: null,
  ...over,
});

/** A trade sub-key of `accountId` made by `createdBy` (null: the root key). */
export const subKey = (
  store: Store,
  accountId: number,
  createdBy: number | null = null,
): Promise<KeyRecord> =>
  store.insertSubKey({
    accountId,
    keyHash: `h_${unique()}`,
    name: `k_${unique()}`,
    scopes: ["trade"],
    wallets: null,
    expiresAt: null,
    policy: null,
    createdAt: isoNoZone(new Date()),
    createdBy,
  });

/** What a fire decides on: key `keyId` of `accountId` as `store` reads it now (its chain, their versions), and `walletId`. */
export async function liveNow(
  store: Store,
  accountId: number,
  keyId: number,
  walletId: number,
): Promise<LiveCheck> {
  const k = (await store.findKey(accountId, keyId))!;
  return { ...liveCheckOf(k), walletId };
}

/**
 * The claim paths of a fire's claim: SQLite's fast path (PostgreSQL's one statement), the transaction with a 24 h
 * reservation (`room`, under no cap), and the general transition.
 */
export function claimPaths(room: SpendReservation) {
  return {
    fast: (s: Store, t: OrderTransition, e: NewExecution) => s.claimOrderRecording(t, e, null),
    reserving: (s: Store, t: OrderTransition, e: NewExecution) => s.claimOrderRecording(t, e, room),
    general: async (s: Store, t: OrderTransition) => {
      const o = await s.transitionOrder(t);
      return o === undefined ? undefined : { order: o };
    },
  };
}

/** The fire's claim of open order `o` (at its version), conditional on `live`. */
export const fireClaim = (
  o: { id: string; version: number },
  live: LiveCheck,
  leaseUntilMs: number,
): OrderTransition => ({
  id: o.id,
  from: "open",
  version: o.version,
  to: "triggered",
  claim: { owner: "p", leaseUntilMs, live },
  triggeredBy: "take_profit",
});
