/** The collaborators of the order engine (engine.ts). */
import type { OrderRecord, Store } from "../../store/index.js";
import type { TradeConfigs } from "../trade/plan.js";
import type { VenueState } from "../watch/venue-state.js";
import type { FireOutcome, OrderOwner, RecordClaim } from "./fire.js";
import type { OrderSpec } from "./model.js";
import type { SnipeBook } from "./snipe-engine.js";
import type { CopyBook } from "./copy-engine.js";

/** Collaborators of the engine. */
export interface EngineDeps {
  store: Store;
  venues: Pick<VenueState, "lookup" | "pin" | "unpin" | "onMintChange">;
  configs: TradeConfigs;
  /**
   * Fires an order's next attempt (`attempt`: the order's attempt count once claimed), its execution record
   * written with `claim` in one commit (fire.ts RecordClaim); "lost" when that claim lost.
   */
  fire: (
    order: Pick<OrderRecord, "id" | "accountId" | "keyId" | "wallet" | "attempt">,
    spec: OrderSpec,
    claim: RecordClaim,
  ) => Promise<FireOutcome>;
  /** This process's name in leases. */
  owner: string;
  clock: () => Date;
  /** How long a claim's lease lasts (a fire, confirmation included, ends well within it). */
  leaseMs: number;
  /** How often the store is polled for other processes' changes, expiries and dead processes' claims. */
  syncMs: number;
  onError: (e: unknown) => void;
  /**
   * Reads a mint's state once and offers it to the warm state: after a migration invalidated the mint's entries
   * (or while its subscription is stale) the evaluation has nothing to decide on until then.
   */
  refresh?: (mint: string) => Promise<void>;
  /** Told of each fire's end (tests and the bench wait on it). */
  onSettled?: (order: OrderRecord) => void;
  /**
   * Told of each order entering the book, to prepare its fire ahead (prepared-trades.ts, custody-snapshots.ts):
   * `owner` is whose key and wallet it fires with.
   */
  prepare?: (id: string, spec: OrderSpec, owner: OrderOwner) => void;
  /** The standing snipe orders (fired from create events, not from a mint's state). */
  snipes?: SnipeBook;
  /** The standing copy orders (fired from followed wallets' trades). */
  copies?: CopyBook;
}
