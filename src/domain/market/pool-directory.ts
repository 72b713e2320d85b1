/**
 * Pool address → base mint (and mayhem flag) for swap trades, whose events name the pool but not the
 * mint: read once from the chain (the pool's mayhem flag with it), then kept in a bounded LRU.
 */
import { LruMap } from "../../core/lru.js";
import type { PoolInfo } from "./messages.js";

/** Reads a pool account and decodes it (null when it is not a pool). */
export type ReadPool = (pool: string) => Promise<PoolInfo | null>;

export class PoolDirectory {
  private readonly known: LruMap<string, PoolInfo>;

  constructor(
    private readonly read: ReadPool,
    max = 10_000,
  ) {
    this.known = new LruMap(max);
  }

  /** The pool's mint and flags, read from the chain once when unknown; null when it is not a pool. */
  async lookup(pool: string): Promise<PoolInfo | null> {
    const hit = this.known.get(pool);
    if (hit !== undefined) return hit;
    const info = await this.read(pool);
    if (info !== null) this.known.set(pool, info);
    return info;
  }
}
