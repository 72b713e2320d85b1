/**
 * Fixed-window request counters behind the per-key and per-account budgets: in memory (one process, SQLite),
 * on PostgreSQL (every process on the database) or on Redis (REDIS_URL). Each answers the count including
 * this request; `countAll` counts several names (a key and its account) in one round trip.
 */
import type { RateCounterStore } from "../../store/index.js";
import type { RedisEval } from "./rate-limiters.js";

export interface RequestCounter {
  /** Counts one request for `key` in the window starting at `windowStartMs`; returns the count so far. */
  count(key: string, windowStartMs: number, windowMs: number): Promise<number>;
  /** Counts one request for each of `keys` (distinct) at once; the counts so far, in the same order. */
  countAll(keys: readonly string[], windowStartMs: number, windowMs: number): Promise<number[]>;
}

// Past this many keys the map drops counters of finished windows (bounded memory under IP scans).
const MEMORY_SWEEP_SIZE = 10_000;

/** One process's counters (the default with SQLite: a second process on the same file keeps its own). */
export function memoryRequestCounter(): RequestCounter {
  const counters = new Map<string, { windowStartMs: number; count: number }>();
  const countOne = (key: string, windowStartMs: number): number => {
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
  };
  return {
    async count(key, windowStartMs) {
      return countOne(key, windowStartMs);
    },
    async countAll(keys, windowStartMs) {
      return keys.map((k) => countOne(k, windowStartMs));
    },
  };
}

/** Counters in the service database (PostgreSQL): shared by every process on it. */
export function storeRequestCounter(store: RateCounterStore): RequestCounter {
  return {
    count: (key, windowStartMs) => store.countRequest(key, windowStartMs),
    countAll: (keys, windowStartMs) => store.countRequests(keys, windowStartMs),
  };
}

// One key per window; the expiry only bounds memory (two windows, so a late request still finds its key).
const COUNT_SCRIPT = `
local out = {}
for i, k in ipairs(KEYS) do
  local n = redis.call('INCR', k)
  if n == 1 then redis.call('PEXPIRE', k, ARGV[1]) end
  out[i] = n
end
return out`;

/** Counters on Redis (REDIS_URL): atomic INCRs in one script, shared by every process on it. */
export function redisRequestCounter(redis: RedisEval, prefix = "lasertrade:rc:"): RequestCounter {
  const countAll = async (keys: readonly string[], windowStartMs: number, windowMs: number) => {
    const names = keys.map((k) => `${prefix}${k}:${windowStartMs}`);
    const n = await redis.eval(COUNT_SCRIPT, names.length, ...names, 2 * windowMs);
    return (n as unknown[]).map(Number);
  };
  return {
    async count(key, windowStartMs, windowMs) {
      const [n] = await countAll([key], windowStartMs, windowMs);
      return n!;
    },
    countAll,
  };
}
