/** Keeps LiteSVM's Clock and SlotHashes sysvars in step with the localnet's slot clock. */
import { Clock } from "litesvm";
import type { LiteSVM, SlotHash } from "litesvm";

/** Entries the SlotHashes sysvar holds, as on mainnet. */
const SLOT_HASHES_MAX_ENTRIES = 512;
const SLOTS_PER_EPOCH = 432_000n;
const GENESIS_SLOT = 0n;

/** The slot clock as the ledger sees it. */
export interface SlotClock {
  clock(): { slot: bigint; unixTimestamp: bigint };
  /** Base58 hash recorded for a slot (the slot's blockhash). */
  hashAt(slot: bigint): string;
}

/**
 * Writes Clock and SlotHashes lazily: slot advances only mark them stale and the next read or execution
 * writes them once, so advancing many slots costs one write instead of one per slot.
 *
 * SlotHashes lists, newest first, the current slot and the 510 before it, then slot 0. Mainnet's bank N
 * lists N-1 back to N-512; the localnet runs a transaction in the slot getSlot reports, so that slot is
 * listed for `createLookupTable({ recentSlot: await connection.getSlot() })` to work. Slot 0 stays listed
 * so a table can be addressed before the localnet starts (the sandbox derives its table from slot 0).
 */
export class SlotSysvars {
  private stale = true;
  private readonly pool: SlotHash[];

  constructor(
    private readonly svm: LiteSVM,
    private readonly slots: SlotClock,
    private readonly epochStartUnix: bigint,
  ) {
    // SlotHash has no public constructor; LiteSVM returns fresh copies on every read, so one read of a
    // list of the full length yields the instances this class reuses.
    const seed = svm.getSlotHashes()[0];
    if (seed === undefined) throw new Error("LiteSVM has no SlotHashes entry to copy");
    svm.setSlotHashes(Array.from({ length: SLOT_HASHES_MAX_ENTRIES }, () => seed));
    this.pool = svm.getSlotHashes();
  }

  /** Marks both sysvars out of date (call after every slot advance). */
  markStale(): void {
    this.stale = true;
  }

  /** Writes both sysvars if a slot advanced since the last write. */
  sync(): void {
    if (!this.stale) return;
    this.stale = false;
    const { slot, unixTimestamp } = this.slots.clock();
    const epoch = slot / SLOTS_PER_EPOCH;
    this.svm.setClock(new Clock(slot, this.epochStartUnix, epoch, epoch + 1n, unixTimestamp));
    const recent = BigInt(SLOT_HASHES_MAX_ENTRIES - 1);
    const oldest = slot >= recent ? slot - recent + 1n : 0n;
    const listed: bigint[] = [];
    for (let s = slot; s >= oldest; s--) listed.push(s);
    if (oldest > 0n) listed.push(GENESIS_SLOT);
    const entries = this.pool.slice(0, listed.length);
    entries.forEach((entry, i) => {
      entry.slot = listed[i]!;
      entry.hash = this.slots.hashAt(listed[i]!);
    });
    this.svm.setSlotHashes(entries);
  }
}
