/** Fixed-window "one hit per key per window" limiters that hold across processes (database or Redis). */
import type { Store } from "../../store/index.js";

export interface RateLimiter {
  /** Records a hit at nowMs unless one was recorded within windowMs before; true when allowed. */
  hit(key: string, nowMs: number, windowMs: number): Promise<boolean>;
}

/** Limiter on the service database: shared by every process on the same PostgreSQL (or SQLite file). */
export function storeRateLimiter(store: Pick<Store, "hitRateLimit">): RateLimiter {
  return { hit: (key, nowMs, windowMs) => store.hitRateLimit(key, nowMs, windowMs) };
}

/** The slice of an ioredis client the limiter uses. */
export interface RedisEval {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

// The caller's clock decides (not Redis' own), so tests can inject time; PX only bounds memory.
const HIT_SCRIPT = `
local last = redis.call('GET', KEYS[1])
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
if last and tonumber(last) > now - window then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', window)
return 1`;

/** Limiter on Redis (REDIS_URL): atomic via a Lua script. */
export function redisRateLimiter(redis: RedisEval, prefix = "lasertrade:rl:"): RateLimiter {
  return {
    async hit(key, nowMs, windowMs) {
      const r = await redis.eval(HIT_SCRIPT, 1, prefix + key, nowMs, windowMs);
      return Number(r) === 1;
    },
  };
}
