/**
 * What RELAY and ROUTES share: both name relay presets, comma-separated, each once; an unknown name is refused
 * with the known ones; a preset's API key comes from its own environment variable.
 */
import { RELAY_PRESETS, type RelayPreset } from "../chain/relay-presets.js";
import { ConfigError, raw } from "./parse.js";
import type { RelayTarget } from "./relays.js";

/** A variable naming presets, as its errors speak of it. */
export interface PresetVariable {
  readonly env: "RELAY" | "ROUTES";
  /** What one name stands for ("relay", "route"). */
  readonly noun: string;
  /** How a key's error cites the variable naming `preset`. */
  readonly cite: (preset: string) => string;
}

const NO_AUTH = Object.freeze({ headers: Object.freeze({}), query: Object.freeze({}) });
/** The auth of a preset that needs no key (and of a custom relay URL). */
export const noAuth = (): { headers: Record<string, string>; query: Record<string, string> } => NO_AUTH;

/** The variable's names (trimmed, none twice, at least one), or undefined when it is unset. */
export function presetNames(env: NodeJS.ProcessEnv, v: PresetVariable): string[] | undefined {
  const value = raw(env, v.env);
  if (value === undefined) return undefined;
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (names.length === 0) throw new ConfigError(v.env, `must name at least one ${v.noun}`);
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new ConfigError(v.env, `names "${n}" twice`);
    seen.add(n);
  }
  return names;
}

/** The preset `name` names (a ConfigError listing the known ones otherwise). */
export function presetNamed(name: string, v: PresetVariable): RelayPreset {
  const preset = RELAY_PRESETS.get(name);
  if (preset === undefined)
    throw new ConfigError(
      v.env,
      `names an unknown ${v.noun} "${name}" (known: ${[...RELAY_PRESETS.keys()].join(", ")})`,
    );
  return preset;
}

/** The auth of a preset from its environment variable; a required key that is missing is a ConfigError. */
export function presetAuth(
  env: NodeJS.ProcessEnv,
  preset: RelayPreset,
  v: PresetVariable,
): RelayTarget["auth"] {
  const auth = preset.auth;
  if (auth === undefined) return noAuth;
  const value = raw(env, auth.env);
  if (value === undefined) {
    if (auth.required) throw new ConfigError(auth.env, `is required by ${v.cite(preset.name)} (its API key)`);
    return noAuth;
  }
  const frozen = Object.freeze({
    headers: Object.freeze(auth.in === "header" ? { [auth.name]: value } : {}),
    query: Object.freeze(auth.in === "query" ? { [auth.name]: value } : {}),
  });
  return () => frozen;
}
