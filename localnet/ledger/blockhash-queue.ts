/** The localnet's slot clock state and blockhash queue (pure; the timer lives in the server). */
import { createHash } from "node:crypto";
import bs58 from "bs58";

/** Slots a blockhash stays valid, as on mainnet. */
export const BLOCKHASH_VALIDITY_SLOTS = 150n;
// At least the SlotHashes window (512), so every hash it lists is a lookup.
const KEEP_SLOTS = 512n;

/** Slot, per-slot blockhashes and the validity window. Block height equals the slot (no skipped slots). */
export class BlockhashQueue {
  private readonly bySlot = new Map<bigint, string>();
  private readonly byHash = new Map<string, bigint>();
  slot: bigint;

  constructor(
    private readonly seed: string,
    startSlot: bigint,
  ) {
    this.slot = startSlot;
    this.record(startSlot);
  }

  /** The blockhash of any slot (derived from the seed, so also for slots no longer kept). */
  hashAt(slot: bigint): string {
    const kept = this.bySlot.get(slot);
    if (kept !== undefined) return kept;
    return bs58.encode(createHash("sha256").update(`${this.seed}:${slot}`).digest());
  }

  private record(slot: bigint): void {
    const hash = this.hashAt(slot);
    this.bySlot.set(slot, hash);
    this.byHash.set(hash, slot);
    const old = slot - KEEP_SLOTS;
    const stale = this.bySlot.get(old);
    if (stale !== undefined) {
      this.bySlot.delete(old);
      this.byHash.delete(stale);
    }
  }

  /** Advances one slot and produces its blockhash. */
  advance(): void {
    this.slot += 1n;
    this.record(this.slot);
  }

  /** The newest blockhash. */
  latest(): string {
    return this.bySlot.get(this.slot)!;
  }

  /** Last block height at which the latest blockhash is still accepted. */
  lastValidBlockHeight(): bigint {
    return this.slot + BLOCKHASH_VALIDITY_SLOTS;
  }

  /** Whether a transaction with this blockhash may still land. */
  isValid(hash: string): boolean {
    const at = this.byHash.get(hash);
    return at !== undefined && this.slot - at <= BLOCKHASH_VALIDITY_SLOTS;
  }
}
