/**
 * Built-in submission relays, selected by name with RELAY=<name>[,<name>…]. Every fact (host, path, tip
 * accounts, minimum tip, auth header) is taken from the relay's own public documentation, except where a
 * preset's `source` names a third-party SDK (NextBlock's tips, all of 0slot); the sources are listed in
 * docs/configuration.md ("Relay presets"). Minimum tips change over time: RELAY_TIP_LAMPORTS may
 * raise the tip, never lower it under a preset's published minimum.
 */

/** What kind of endpoint a preset is. */
export type RelayKind =
  /** Jito block engine: sendTransaction on /api/v1/transactions and bundles on /api/v1/bundles. */
  | "block-engine"
  /** Staked-connection sender: sendTransaction only, a tip to its own accounts required. */
  | "sender"
  /** Plain Solana JSON-RPC sendTransaction (the configured RPC_URL): no tip. */
  | "rpc";

/** An optional or required auth key sent as a header (or query parameter), its value from an environment variable. */
export interface RelayAuth {
  in: "header" | "query";
  /** Header or query-parameter name. */
  name: string;
  /** Environment variable holding the key; its value is never logged. */
  env: string;
  required: boolean;
}

/** A built-in relay. */
export interface RelayPreset {
  name: string;
  kind: RelayKind;
  /**
   * sendTransaction endpoint. `{rpc}` stands for RPC_URL (generic JSON-RPC, and the sandbox localnet whose
   * relays live under its RPC URL).
   */
  url: string;
  /** Block-engine base URL for bundles (block-engine presets only). */
  bundleUrl?: string;
  /** Published tip accounts; empty = the relay needs no tip (or, for localnet presets, the localnet's own). */
  tipAccounts: readonly string[];
  /** Published minimum tip in lamports (0 = none). */
  minTipLamports: bigint;
  auth?: RelayAuth;
  /** Where the facts come from. */
  source: string;
  /**
   * Whether the route keeps the transaction from sandwiching (sent privately to the block producer, or with
   * the provider's front-running protection on): what `mev_protect: true` on a raced trade keeps.
   */
  mevProtect?: boolean;
  /**
   * How a transaction is submitted: JSON-RPC sendTransaction (default), or the REST `POST /api/v2/submit`
   * of bloXroute's Trader API and NextBlock (`{"transaction":{"content":"<base64>"}}`).
   */
  wire?: "jsonrpc" | "submit-v2";
}

/** The 8 mainnet tip accounts of the Jito block engine ("have remained constant"). */
export const JITO_TIP_ACCOUNTS: readonly string[] = Object.freeze([
  "96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5",
  "HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe",
  "Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY",
  "ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49",
  "DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh",
  "ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt",
  "DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL",
  "3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT",
]);

/** Helius Sender's 10 mainnet tip accounts (not Jito's). */
export const HELIUS_SENDER_TIP_ACCOUNTS: readonly string[] = Object.freeze([
  "4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE",
  "D2L6yPZ2FmmmTKPgzaMKdhu6EWZcTpLy1Vhx8uvZe7NZ",
  "9bnz4RShgq1hAnLnZbP8kbgBg1kEmcJBYQq3gQbmnSta",
  "5VY91ws6B2hMmBFRsXkoAAdsPHBJwRfBht4DXox3xkwn",
  "2nyhqdwKcJZR2vcqCyrYsaPVdAnFoJjiksCXJ7hfEYgD",
  "2q5pghRs6arqVjRvT5gfgWfWcHWmw1ZuCzphgd5KfWGJ",
  "wyvPkWjVZz1M8fHQnMMCDTQDbkManefNNhweYk5WkcF",
  "3KCKozbAaF75qEU33jtzozcJ29yJuaLJTy2jFdzUY8bT",
  "4vieeGHPYPG2MmyPRcYjdiDmmhN3ww7hsFNap8pVN3Ey",
  "4TQLFNWK8AovT1gFvda5jfw2oJeRMKEmw7aH6MGBJ3or",
]);

/** Nozomi (Temporal) tip accounts. */
const NOZOMI_TIP_ACCOUNTS: readonly string[] = Object.freeze([
  "TEMPaMeCRFAS9EKF53Jd6KpHxgL47uWLcpFArU1Fanq",
  "noz3jAjPiHuBPqiSPkkugaJDkJscPuRhYnSpbi8UvC4",
  "noz3str9KXfpKknefHji8L1mPgimezaiUyCHYMDv1GE",
  "noz6uoYCDijhu1V7cutCpwxNiSovEwLdRHPwmgCGDNo",
  "noz9EPNcT7WH6Sou3sr3GGjHQYVkN3DNirpbvDkv9YJ",
  "nozc5yT15LazbLTFVZzoNZCwjh3yUtW86LoUyqsBu4L",
  "nozFrhfnNGoyqwVuwPAW4aaGqempx4PU6g6D9CJMv7Z",
  "nozievPk7HyK1Rqy1MPJwVQ7qQg2QoJGyP71oeDwbsu",
  "noznbgwYnBLDHu8wcQVCEw6kDrXkPdKkydGJGNXGvL7",
  "nozNVWs5N8mgzuD3qigrCG2UoKxZttxzZ85pvAQVrbP",
  "nozpEGbwx4BcGp6pvEdAh1JoC2CQGZdU6HbNP1v2p6P",
  "nozrhjhkCr3zXT3BiT4WCodYCUFeQvcdUkM7MqhKqge",
  "nozrwQtWhEdrA6W8dkbt9gnUaMs52PdAv5byipnadq3",
  "nozUacTVWub3cL4mJmGCYjKZTnE9RbdY5AP46iQgbPJ",
  "nozWCyTPppJjRuw2fpzDhhWbW355fzosWSzrrMYB1Qk",
  "nozWNju6dY353eMkMqURqwQEoM3SFgEKC6psLCSfUne",
  "nozxNBgWohjR75vdspfxR5H9ceC7XXH99xpxhVGt3Bb",
]);

/** Astralane tip accounts (documented list). */
const ASTRALANE_TIP_ACCOUNTS: readonly string[] = Object.freeze([
  "astrazznxsGUhWShqgNtAdfrzP2G83DzcWVJDxwV9bF",
  "astra4uejePWneqNaJKuFFA8oonqCE1sqF6b45kDMZm",
  "astra9xWY93QyfG6yM8zwsKsRodscjQ2uU2HKNL5prk",
  "astraRVUuTHjpwEVvNBeQEgwYx9w9CFyfxjYoobCZhL",
  "astraEJ2fEj8Xmy6KLG7B3VfbKfsHXhHrNdCQx7iGJK",
  "astraubkDw81n4LuutzSQ8uzHCv4BhPVhfvTcYv8SKC",
  "astraZW5GLFefxNPAatceHhYjfA1ciq9gvfEg2S47xk",
  "astrawVNP4xDBKT7rAdxrLYiTSTdqtUr63fSMduivXK",
]);

/**
 * 0slot tip accounts: no 0slot document is stored; the list sol-trade-sdk (a third-party SDK) uses (UNCONFIRMED:
 * verify with `npm run doctor` and the provider).
 */
const ZEROSLOT_TIP_ACCOUNTS: readonly string[] = Object.freeze([
  "Eb2KpSC8uMt9GmzyAEm5Eb1AAAgTjRaXWFjKyFXHZxF3",
  "FCjUJZ1qozm1e8romw216qyfQMaaWKxWsuySnumVCCNe",
  "ENxTEjSQ1YabmUpXAdCgevnHQ9MHdLv8tzFiuiYJqa13",
  "6rYLG55Q9RpsPGvqdPNJs4z5WTxJVatMB8zV3WJhs5EK",
  "Cix2bHfqPcKcM233mzxbLk14kSggUUiz2A87fJtGivXr",
]);

/** bloXroute Trader API tip accounts (rotate; minimum 0.001 SOL). */
const BLOXROUTE_TIP_ACCOUNTS: readonly string[] = Object.freeze([
  "HWEoBxYs7ssKuudEjzjmpfJVX7Dvi7wescFsVx2L5yoY",
  "95cfoy472fcQHaw4tPGBTKpn6ZQnfEPfBgDQx6gcRmRg",
  "3UQUKjhMKaY2S6bjcQD6yHB7utcZt5bfarRCmctpRtUd",
  "FogxVNs6Mm2w9rnGL1vkARSwJxvLE8mujTv3LK8RnUhF",
]);

/** NextBlock tip accounts: not in its stored docs; the list sol-trade-sdk uses (verify with `npm run doctor`). */
const NEXTBLOCK_TIP_ACCOUNTS: readonly string[] = Object.freeze([
  "NextbLoCkVtMGcV47JzewQdvBpLqT9TxQFozQkN98pE",
  "NexTbLoCkWykbLuB1NkjXgFWkX9oAtcoagQegygXXA2",
  "NeXTBLoCKs9F1y5PJS9CKrFNNLU1keHW71rfh7KgA1X",
  "NexTBLockJYZ7QD7p2byrUa6df8ndV2WSd8GkbWqfbb",
  "neXtBLock1LeC67jYd1QdAa32kbVeubsfPNTJC1V5At",
  "nEXTBLockYgngeRmRrjDV31mGSekVPqZoMGhQEZtPVG",
  "NEXTbLoCkB51HpLBLojQfpyVAMorm3zzKg7w9NFdqid",
  "nextBLoCkPMgmG8ZgJtABeScP35qLa2AMCNKntAP7Xc",
]);

const JITO_SOURCE = "https://docs.jito.wtf/lowlatencytxnsend/";
const BLOXROUTE_SOURCE = "https://docs.bloxroute.com/solana/trader-api";
const NEXTBLOCK_SOURCE = "https://docs.nextblock.io/api/examples/http";

const HELIUS_SOURCE = "https://www.helius.dev/docs/sending-transactions/sender";
const NOZOMI_SOURCE = "https://use.temporal.xyz/nozomi/";
const ASTRALANE_SOURCE = "https://astralane.gitbook.io/docs/";
// No 0slot document is stored: hosts, path, auth, tip accounts and minimum are a third-party SDK's.
const ZEROSLOT_SOURCE = "third-party: 0xfnzero/sol-trade-sdk (src/swqos/zeroslot.rs, src/constants/swqos.rs)";

// "The minimum tip is 1000 lamports" (Jito); Sender Max 0.001 SOL, SWQOS-only 0.000005 SOL (Helius);
// 0.001 SOL (Nozomi); 0.00001 SOL (Astralane Iris).
const JITO_MIN_TIP = 1_000n;
const HELIUS_MIN_TIP = 1_000_000n;
const HELIUS_SWQOS_MIN_TIP = 5_000n;
const NOZOMI_MIN_TIP = 1_000_000n;
const ASTRALANE_MIN_TIP = 10_000n;
const BLOXROUTE_MIN_TIP = 1_000_000n;
// No published minimum in the stored documents: sol-trade-sdk's figure.
const NEXTBLOCK_MIN_TIP = 1_000_000n;
// 0slot: 0.0001 SOL, sol-trade-sdk's figure (UNCONFIRMED).
const ZEROSLOT_MIN_TIP = 100_000n;

// `x-jito-auth: <uuid>` is optional ("You no longer need an approved auth key for default sends").
const JITO_AUTH: RelayAuth = { in: "header", name: "x-jito-auth", env: "JITO_AUTH_UUID", required: false };
// Astralane: header `api-key` (or the query parameter), mandatory.
const ASTRALANE_AUTH: RelayAuth = { in: "header", name: "api-key", env: "ASTRALANE_API_KEY", required: true };
// Nozomi: the `c` query parameter, mandatory (it has no header form).
const NOZOMI_AUTH: RelayAuth = { in: "query", name: "c", env: "NOZOMI_API_KEY", required: true };
// 0slot: the `api-key` query parameter, mandatory (`POST /?api-key=KEY`, as sol-trade-sdk sends it).
const ZEROSLOT_AUTH: RelayAuth = { in: "query", name: "api-key", env: "ZEROSLOT_API_KEY", required: true };
// bloXroute and NextBlock: `Authorization: <key>`, mandatory.
const BLOXROUTE_AUTH: RelayAuth = {
  in: "header",
  name: "Authorization",
  env: "BLOXROUTE_AUTH_HEADER",
  required: true,
};
const NEXTBLOCK_AUTH: RelayAuth = {
  in: "header",
  name: "Authorization",
  env: "NEXTBLOCK_API_KEY",
  required: true,
};

const BLOXROUTE_REGIONS = ["global", "ny", "uk", "amsterdam", "germany", "la", "tokyo"];
const NEXTBLOCK_REGIONS = ["frankfurt", "amsterdam", "london", "singapore", "tokyo", "ny", "slc", "dublin"];

const JITO_REGIONS: Record<string, string> = {
  jito: "mainnet",
  "jito-amsterdam": "amsterdam.mainnet",
  "jito-dublin": "dublin.mainnet",
  "jito-frankfurt": "frankfurt.mainnet",
  "jito-london": "london.mainnet",
  "jito-ny": "ny.mainnet",
  "jito-slc": "slc.mainnet",
  "jito-singapore": "singapore.mainnet",
  "jito-tokyo": "tokyo.mainnet",
};

const HELIUS_REGIONS = ["slc", "ewr", "lon", "fra", "ams", "sg", "tyo"];
const NOZOMI_REGIONS = ["ewr1", "pit1", "ams1", "fra2"];
const ASTRALANE_REGIONS = ["fr", "la", "jp", "ny", "ams", "sg"];
const ZEROSLOT_REGIONS = ["ny", "de2", "ams", "la", "jp"];

function buildPresets(): Map<string, RelayPreset> {
  const list: RelayPreset[] = [];
  for (const [name, host] of Object.entries(JITO_REGIONS)) {
    const base = `https://${host}.block-engine.jito.wtf`;
    list.push({
      name,
      kind: "block-engine",
      url: `${base}/api/v1/transactions`,
      bundleUrl: base,
      tipAccounts: JITO_TIP_ACCOUNTS,
      minTipLamports: JITO_MIN_TIP,
      auth: JITO_AUTH,
      source: JITO_SOURCE,
      // "MEV protection by default" on the block engine's sendTransaction.
      mevProtect: true,
    });
  }
  const helius = (name: string, url: string, min: bigint) =>
    list.push({
      name,
      kind: "sender",
      url,
      tipAccounts: HELIUS_SENDER_TIP_ACCOUNTS,
      minTipLamports: min,
      source: HELIUS_SOURCE,
    });
  helius("helius-sender", "https://sender.helius-rpc.com/fast", HELIUS_MIN_TIP);
  helius("helius-sender-swqos", "https://sender.helius-rpc.com/fast?swqos_only=true", HELIUS_SWQOS_MIN_TIP);
  for (const r of HELIUS_REGIONS) {
    helius(`helius-sender-${r}`, `http://${r}-sender.helius-rpc.com/fast`, HELIUS_MIN_TIP);
  }
  const nozomi = (name: string, url: string) =>
    list.push({
      name,
      kind: "sender",
      url,
      tipAccounts: NOZOMI_TIP_ACCOUNTS,
      minTipLamports: NOZOMI_MIN_TIP,
      auth: NOZOMI_AUTH,
      source: NOZOMI_SOURCE,
    });
  nozomi("nozomi", "https://nozomi.temporal.xyz/");
  for (const r of NOZOMI_REGIONS) nozomi(`nozomi-${r}`, `http://${r}.nozomi.temporal.xyz/`);
  for (const r of ASTRALANE_REGIONS) {
    list.push({
      name: `astralane-${r}`,
      kind: "sender",
      url: `http://${r}.gateway.astralane.io/iris`,
      tipAccounts: ASTRALANE_TIP_ACCOUNTS,
      minTipLamports: ASTRALANE_MIN_TIP,
      auth: ASTRALANE_AUTH,
      source: ASTRALANE_SOURCE,
    });
  }
  for (const r of ZEROSLOT_REGIONS) {
    list.push({
      name: `0slot-${r}`,
      kind: "sender",
      // JSON-RPC sendTransaction at the root (the key is added as `?api-key=`).
      url: `http://${r}.0slot.trade/`,
      tipAccounts: ZEROSLOT_TIP_ACCOUNTS,
      minTipLamports: ZEROSLOT_MIN_TIP,
      auth: ZEROSLOT_AUTH,
      source: ZEROSLOT_SOURCE,
    });
  }
  for (const r of BLOXROUTE_REGIONS) {
    list.push({
      name: `bloxroute-${r}`,
      kind: "sender",
      url: `https://${r}.solana.dex.blxrbdn.com/api/v2/submit`,
      tipAccounts: BLOXROUTE_TIP_ACCOUNTS,
      minTipLamports: BLOXROUTE_MIN_TIP,
      auth: BLOXROUTE_AUTH,
      source: BLOXROUTE_SOURCE,
      wire: "submit-v2",
      // Sent with frontRunningProtection on (see landing/submit-v2-client.ts).
      mevProtect: true,
    });
  }
  for (const r of NEXTBLOCK_REGIONS) {
    list.push({
      name: `nextblock-${r}`,
      kind: "sender",
      url: `http://${r}.nextblock.io/api/v2/submit`,
      tipAccounts: NEXTBLOCK_TIP_ACCOUNTS,
      minTipLamports: NEXTBLOCK_MIN_TIP,
      auth: NEXTBLOCK_AUTH,
      source: NEXTBLOCK_SOURCE,
      wire: "submit-v2",
      mevProtect: true,
    });
  }
  list.push({
    name: "rpc",
    kind: "rpc",
    url: "{rpc}",
    tipAccounts: [],
    minTipLamports: 0n,
    source: "https://solana.com/docs/rpc/http/sendtransaction",
  });
  // The sandbox localnet's two relays (the second one has its own fault switches): tip accounts and minimum
  // are the localnet's own, filled in at start.
  for (const [name, path] of [
    ["localnet", "/relay"],
    ["localnet2", "/relay2"],
  ] as const) {
    list.push({
      name,
      kind: "sender",
      url: `{rpc}${path}`,
      tipAccounts: [],
      minTipLamports: 0n,
      source: "localnet/ (this repository)",
    });
  }
  // The localnet's landing routes (localnet/server/landing-routes.ts): own tip accounts each, filled in at start.
  for (const r of ["a", "b", "c", "d"]) {
    list.push({
      name: `localnet-route-${r}`,
      kind: "sender",
      url: `{rpc}/route/route-${r}`,
      tipAccounts: [],
      minTipLamports: 0n,
      source: "localnet/ (this repository)",
    });
  }
  return new Map(list.map((p) => [p.name, Object.freeze(p)]));
}

/** Every built-in relay by name. */
export const RELAY_PRESETS: ReadonlyMap<string, RelayPreset> = buildPresets();
