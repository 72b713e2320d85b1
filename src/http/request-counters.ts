/**
 * Fixed-window request counters behind the per-key budgets: in memory (one process, SQLite), on PostgreSQL
 * (every process on the database) or on Redis (REDIS_URL). Each answers the count including this request.
 */
import type { RateCounterStore } from "../store/index.js";
import type { RedisEval } from "./rate-limiters.js";

export interface RequestCounter {
  /** Counts one request for `key` in the window starting at `windowStartMs`; returns the count so far. */
  count(key: string, windowStartMs: number, windowMs: number): Promise<number>;
}

// Past this many keys the map drops counters of finished windows (bounded memory under IP scans).
const MEMORY_SWEEP_SIZE = 10_000;

/** One process's counters (the default with SQLite: a second process on the same file keeps its own). */
export function memoryRequestCounter(): RequestCounter {
  const counters = new Map<string, { windowStartMs: number; count: number }>();
  return {
    async count(key, windowStartMs) {
      const c = counters.get(key);
      if (c !== undefined && c.windowStartMs === windowStartMs) {
        c.count += 1;
        return c.count;
      }
      if (counters.size >= MEMORY_SWEEP_SIZE) {
        for (const [k, v] of counters) if (v.windowStartMs < windowStartMs) counters.delete(k);
      }
      counters.set(key, { windowStartMs, count: 1 });
      return 1;
    },
  };
}

/** Counters in the service database (PostgreSQL): shared by every process on it. */
export function storeRequestCounter(store: RateCounterStore): RequestCounter {
  return { count: (key, windowStartMs) => store.countRequest(key, windowStartMs) };
}

// One key per window; the expiry only bounds memory (two windows, so a late request still finds its key).
const COUNT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** Counters on Redis (REDIS_URL): atomic INCR, shared by every process on it. */
export function redisRequestCounter(redis: RedisEval, prefix = "lasertrade:rc:"): RequestCounter {
  return {
    async count(key, windowStartMs, windowMs) {
      const n = await redis.eval(COUNT_SCRIPT, 1, `${prefix}${key}:${windowStartMs}`, 2 * windowMs);
      return Number(n);
    },
  };
}
