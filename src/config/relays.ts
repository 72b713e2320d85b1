/**
 * The relay part of the configuration: RELAY=<preset>[,<preset>…] (src/chain/relay-presets.ts) with the
 * explicit RELAY_URL / RELAY_TIP_ACCOUNTS / RELAY_TIP_LAMPORTS / BUNDLE_RELAY_URL / BUNDLE_TIP_ACCOUNTS
 * overrides, resolved into the list of relays one signed transaction fans out to.
 */
import type { RelayPreset } from "../chain/relay-presets.js";
import { addressList, ConfigError, optionalBig, url } from "./parse.js";
import { noAuth, presetAuth, presetNamed, presetNames, type PresetVariable } from "./presets.js";

/** One relay a transaction is sent to. */
export interface RelayTarget {
  /** Preset name (or "custom" for a bare RELAY_URL): the label in logs and metrics, never the URL. */
  readonly name: string;
  /** sendTransaction endpoint; `{rpc}` stands for RPC_URL. May carry an auth query parameter: never log it. */
  readonly url: string;
  /**
   * The auth header and query parameter of the preset, read from its environment variable. A function so that
   * logging or serializing the configuration can never print the key.
   */
  readonly auth: () => { headers: Record<string, string>; query: Record<string, string> };
}

/** The resolved relay settings. */
export interface RelaySettings {
  /** Empty only in sandbox mode without RELAY/RELAY_URL (the sandbox fills in the localnet's relay). */
  relays: readonly RelayTarget[];
  tipAccounts: readonly string[];
  tipLamports: bigint;
  bundleRelayUrl: string | undefined;
  bundleTipAccounts: readonly string[] | undefined;
}

/** The tip paid when neither RELAY_TIP_LAMPORTS nor a higher preset minimum says otherwise. */
export const DEFAULT_TIP_LAMPORTS = 200_000n;

/** RELAY as its errors speak of it. */
const RELAY: PresetVariable = { env: "RELAY", noun: "relay", cite: (name) => `RELAY=${name}` };

/** The one tip-account list the named presets agree on (empty when none needs a tip). */
function sharedTipAccounts(presets: RelayPreset[]): readonly string[] {
  const tipped = presets.filter((p) => p.tipAccounts.length > 0);
  const first = tipped[0];
  if (first === undefined) return [];
  const other = tipped.find((p) => p.tipAccounts.join(",") !== first.tipAccounts.join(","));
  if (other !== undefined) {
    throw new ConfigError(
      "RELAY",
      `mixes relays with different tip accounts (${first.name}, ${other.name}): one transaction pays one tip ` +
        "to one account, so name relays that share tip accounts (e.g. several jito-<region>, plus rpc) " +
        "or set RELAY_TIP_ACCOUNTS yourself",
    );
  }
  return first.tipAccounts;
}

/** Resolves the relay settings; throws ConfigError naming the variable at fault. */
export function loadRelaySettings(env: NodeJS.ProcessEnv, cluster: string, sandbox: boolean): RelaySettings {
  const http = ["http:", "https:"];
  const relayUrl = url(env, "RELAY_URL", http);
  const explicitTips = addressList(env, "RELAY_TIP_ACCOUNTS");
  const explicitTip = optionalBig(env, "RELAY_TIP_LAMPORTS");
  const explicitBundleUrl = url(env, "BUNDLE_RELAY_URL", http);
  const explicitBundleTips = addressList(env, "BUNDLE_TIP_ACCOUNTS");
  const names = presetNames(env, RELAY);

  if (names === undefined) {
    // No preset: the explicit settings as before (required outside the sandbox).
    if (!sandbox) {
      if (relayUrl === undefined)
        throw new ConfigError("RELAY_URL", `or RELAY is required when CLUSTER=${cluster}`);
      if (explicitTips === undefined) {
        throw new ConfigError("RELAY_TIP_ACCOUNTS", `is required with RELAY_URL when CLUSTER=${cluster}`);
      }
      if (explicitBundleUrl === undefined) {
        throw new ConfigError("BUNDLE_RELAY_URL", `is required when CLUSTER=${cluster}`);
      }
    }
    // Every transaction through a bare relay (or the sandbox's) carries a tip, and a zero tip cannot be built.
    if (explicitTip === 0n)
      throw new ConfigError("RELAY_TIP_LAMPORTS", "must be positive (relays take a tip)");
    return {
      relays: relayUrl === undefined ? [] : [{ name: "custom", url: relayUrl, auth: noAuth }],
      tipAccounts: Object.freeze(explicitTips ?? []),
      tipLamports: explicitTip ?? DEFAULT_TIP_LAMPORTS,
      bundleRelayUrl: explicitBundleUrl,
      bundleTipAccounts: explicitBundleTips === undefined ? undefined : Object.freeze(explicitBundleTips),
    };
  }

  const presets = names.map((n) => presetNamed(n, RELAY));
  for (const p of presets) {
    // A mainnet relay on another cluster would land (and tip) on mainnet, or reject every transaction.
    if (p.kind !== "rpc" && !p.url.startsWith("{rpc}") && cluster !== "mainnet") {
      throw new ConfigError("RELAY", `names the mainnet relay "${p.name}" but CLUSTER=${cluster}`);
    }
  }
  const relays: RelayTarget[] = presets.map((p, i) => ({
    name: p.name,
    // RELAY_URL replaces the first relay's URL (a private endpoint of the same provider).
    url: i === 0 && relayUrl !== undefined ? relayUrl : p.url,
    auth: presetAuth(env, p, RELAY),
  }));

  const tipAccounts = explicitTips ?? sharedTipAccounts(presets);
  const local = presets.find((p) => p.url.startsWith("{rpc}/relay"));
  if (local !== undefined && !sandbox && tipAccounts.length === 0) {
    // Only the in-process sandbox knows its localnet's generated tip accounts.
    throw new ConfigError(
      "RELAY_TIP_ACCOUNTS",
      `is required with RELAY=${local.name} outside the sandbox (npm run localnet prints them)`,
    );
  }
  const needsTip = tipAccounts.length > 0 || local !== undefined;
  const minimum = presets.reduce((m, p) => (p.minTipLamports > m ? p.minTipLamports : m), 0n);
  const minimumOf = presets.find((p) => p.minTipLamports === minimum)?.name ?? "";
  if (explicitTip !== undefined && explicitTip < minimum) {
    throw new ConfigError(
      "RELAY_TIP_LAMPORTS",
      `must be at least ${minimum} (the published minimum tip of ${minimumOf}), got ${explicitTip}`,
    );
  }
  if (explicitTip === 0n && needsTip) {
    throw new ConfigError("RELAY_TIP_LAMPORTS", "must be positive: the relays named take a tip");
  }
  const tipLamports = !needsTip
    ? 0n
    : (explicitTip ?? (minimum > DEFAULT_TIP_LAMPORTS ? minimum : DEFAULT_TIP_LAMPORTS));

  const engine = presets.find((p) => p.bundleUrl !== undefined);
  const bundleRelayUrl = explicitBundleUrl ?? engine?.bundleUrl;
  if (!sandbox && bundleRelayUrl === undefined) {
    throw new ConfigError(
      "BUNDLE_RELAY_URL",
      `is required when CLUSTER=${cluster} and RELAY names no block engine (jito or jito-<region>)`,
    );
  }
  const bundleTipAccounts =
    explicitBundleTips ?? (explicitBundleUrl === undefined && engine ? [...engine.tipAccounts] : undefined);
  return {
    relays: Object.freeze(relays),
    tipAccounts: Object.freeze([...tipAccounts]),
    tipLamports,
    bundleRelayUrl,
    bundleTipAccounts: bundleTipAccounts === undefined ? undefined : Object.freeze(bundleTipAccounts),
  };
}

/** A relay's final URL: `{rpc}` resolved and the auth query parameter (if any) appended. */
export function relayEndpointUrl(target: RelayTarget, rpcUrl: string): string {
  const base = target.url.replace("{rpc}", rpcUrl.replace(/\/+$/, ""));
  const query = target.auth().query;
  if (Object.keys(query).length === 0) return base;
  const u = new URL(base);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  return u.toString();
}
