/**
 * The landing routes: ROUTES=<preset>[,<preset>…] names the senders a raced trade sends one variant to, each
 * paying its own tip to its own tip accounts (unlike RELAY, whose relays must share tip accounts because they
 * all get the same bytes). ROUTE_TIP_LAMPORTS is the tip paid on each route, raised to each route's published
 * minimum. Unset ROUTES: no racing (every trade goes out as today).
 */
import { RELAY_PRESETS, type RelayPreset } from "../chain/relay-presets.js";
import { ConfigError, optionalBig, raw } from "./parse.js";
import type { RelayTarget } from "./relays.js";

/** One configured route. */
export interface RouteTarget extends RelayTarget {
  /** The route's tip accounts (empty for plain RPC; the sandbox fills in the localnet routes'). */
  readonly tipAccounts: readonly string[];
  readonly minTipLamports: bigint;
  /** The tip a variant on this route pays by default (ROUTE_TIP_LAMPORTS raised to the minimum). */
  readonly tipLamports: bigint;
  readonly mevProtect: boolean;
  readonly wire: "jsonrpc" | "submit-v2";
}

const NO_AUTH = Object.freeze({ headers: Object.freeze({}), query: Object.freeze({}) });

function names(env: NodeJS.ProcessEnv): string[] {
  const v = raw(env, "ROUTES");
  if (v === undefined) return [];
  const list = v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (list.length === 0) throw new ConfigError("ROUTES", "must name at least one route");
  const seen = new Set<string>();
  for (const n of list) {
    if (seen.has(n)) throw new ConfigError("ROUTES", `names "${n}" twice`);
    seen.add(n);
  }
  return list;
}

function presetOf(name: string): RelayPreset {
  const p = RELAY_PRESETS.get(name);
  if (p === undefined)
    throw new ConfigError(
      "ROUTES",
      `names an unknown route "${name}" (known: ${[...RELAY_PRESETS.keys()].join(", ")})`,
    );
  return p;
}

function authOf(env: NodeJS.ProcessEnv, p: RelayPreset): RelayTarget["auth"] {
  const auth = p.auth;
  if (auth === undefined) return () => NO_AUTH;
  const value = raw(env, auth.env);
  if (value === undefined) {
    if (auth.required) throw new ConfigError(auth.env, `is required by ROUTES=…${p.name}… (its API key)`);
    return () => NO_AUTH;
  }
  const frozen = Object.freeze({
    headers: Object.freeze(auth.in === "header" ? { [auth.name]: value } : {}),
    query: Object.freeze(auth.in === "query" ? { [auth.name]: value } : {}),
  });
  return () => frozen;
}

/** Resolves ROUTES; throws ConfigError naming the variable at fault. */
export function loadRouteSettings(env: NodeJS.ProcessEnv, cluster: string, sandbox: boolean): RouteTarget[] {
  const tip = optionalBig(env, "ROUTE_TIP_LAMPORTS");
  return names(env).map((name) => {
    const p = presetOf(name);
    const local = p.url.startsWith("{rpc}/");
    if (!local && p.kind !== "rpc" && cluster !== "mainnet")
      throw new ConfigError("ROUTES", `names the mainnet route "${name}" but CLUSTER=${cluster}`);
    if (local && !sandbox)
      throw new ConfigError("ROUTES", `names the localnet route "${name}", which only the sandbox knows`);
    return Object.freeze({
      name,
      url: p.url,
      auth: authOf(env, p),
      tipAccounts: p.tipAccounts,
      minTipLamports: p.minTipLamports,
      tipLamports: tip !== undefined && tip > p.minTipLamports ? tip : p.minTipLamports,
      mevProtect: p.mevProtect ?? false,
      wire: p.wire ?? "jsonrpc",
    });
  });
}
