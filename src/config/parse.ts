/** The small parsers every configuration module shares; each error is one line naming the variable. */

/** A configuration problem; its message is one line naming the variable. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`invalid configuration: ${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

export { BASE58_ADDRESS } from "../core/addresses.js";
import { BASE58_ADDRESS } from "../core/addresses.js";

/** Empty strings count as unset so `FOO=` in an env file does not override a default. */
export function raw(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  if (v === undefined) return undefined;
  const t = v.trim();
  return t === "" ? undefined : t;
}

/** An integer within [min, max], or the default when unset. */
export function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const v = raw(env, name);
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${v}`);
  return n;
}

/** A non-negative bigint, or undefined when unset. */
export function optionalBig(env: NodeJS.ProcessEnv, name: string): bigint | undefined {
  const v = raw(env, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be a non-negative integer, got "${v}"`);
  return BigInt(v);
}

/** A non-negative bigint, or the default when unset. */
export function big(env: NodeJS.ProcessEnv, name: string, dflt: bigint): bigint {
  return optionalBig(env, name) ?? dflt;
}

/** An absolute URL with one of `protocols`, or undefined when unset. */
export function url(env: NodeJS.ProcessEnv, name: string, protocols: readonly string[]): string | undefined {
  const v = raw(env, name);
  if (v === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw new ConfigError(name, "must be an absolute URL");
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use one of ${protocols.join(" ")} (got ${parsed.protocol})`);
  }
  return v;
}

/** A comma-separated list of base58 addresses, or undefined when unset. */
export function addressList(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const v = raw(env, name);
  if (v === undefined) return undefined;
  const list = v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (list.length === 0) throw new ConfigError(name, "must list at least one base58 address");
  for (const a of list) {
    if (!BASE58_ADDRESS.test(a)) throw new ConfigError(name, `contains an invalid base58 address "${a}"`);
  }
  return list;
}

/** One of `choices`, or the default when unset. */
export function oneOf<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  choices: readonly T[],
  dflt: T,
): T {
  const v = raw(env, name) ?? dflt;
  if (!(choices as readonly string[]).includes(v)) {
    throw new ConfigError(name, `must be one of ${choices.join(", ")} (got "${v}")`);
  }
  return v as T;
}
