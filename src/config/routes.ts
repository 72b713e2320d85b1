/**
 * The landing routes: ROUTES=<preset>[,<preset>…] names the senders a raced trade sends one variant to, each
 * paying its own tip to its own tip accounts (unlike RELAY, whose relays must share tip accounts because they
 * all get the same bytes). ROUTE_TIP_LAMPORTS is the tip paid on each route, raised to each route's published
 * minimum. Unset ROUTES: no racing (every trade goes out as today).
 */
import { ConfigError, optionalBig } from "./parse.js";
import { presetAuth, presetNamed, presetNames, type PresetVariable } from "./presets.js";
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

/** ROUTES as its errors speak of it. */
const ROUTES: PresetVariable = { env: "ROUTES", noun: "route", cite: (name) => `ROUTES=…${name}…` };

/** Resolves ROUTES; throws ConfigError naming the variable at fault. */
export function loadRouteSettings(env: NodeJS.ProcessEnv, cluster: string, sandbox: boolean): RouteTarget[] {
  const tip = optionalBig(env, "ROUTE_TIP_LAMPORTS");
  return (presetNames(env, ROUTES) ?? []).map((name) => {
    const p = presetNamed(name, ROUTES);
    const local = p.url.startsWith("{rpc}/");
    if (!local && p.kind !== "rpc" && cluster !== "mainnet")
      throw new ConfigError("ROUTES", `names the mainnet route "${name}" but CLUSTER=${cluster}`);
    if (local && !sandbox)
      throw new ConfigError("ROUTES", `names the localnet route "${name}", which only the sandbox knows`);
    return Object.freeze({
      name,
      url: p.url,
      auth: presetAuth(env, p, ROUTES),
      tipAccounts: p.tipAccounts,
      minTipLamports: p.minTipLamports,
      tipLamports: tip !== undefined && tip > p.minTipLamports ? tip : p.minTipLamports,
      mevProtect: p.mevProtect ?? false,
      wire: p.wire ?? "jsonrpc",
    });
  });
}
