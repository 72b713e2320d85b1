/** Valid request bodies per route ("METHOD path"), the starting point of the mutated-body family. */
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import type { CaseContext } from "./context.js";

/** Valid bodies per route (confirm off so a valid case costs one send, not a confirmation wait). */
export function templates(
  ctx: CaseContext,
  ext: string,
  seed: Uint8Array,
): Record<string, Record<string, unknown>[]> {
  const [w0, w1] = ctx.wallets;
  const uri = "https://example.com/fuzz.json";
  return {
    "POST /v1/wallets": [{}, { set_default: false }],
    "POST /v1/wallets/import": [
      { private_key_base58: bs58.encode(seed) },
      { private_key_base58: bs58.encode(Keypair.fromSeed(seed).secretKey), set_default: false },
    ],
    "POST /v1/trades/execute": [
      { action: "buy", mint: ctx.mint, amount: "0.001", confirm: false },
      { action: "sell", mint: ctx.mint, amount: "10%", confirm: false },
      { action: "buy", mint: ctx.migratedMint, amount: "0.001", slippage_bps: 300, confirm: false },
      { side: "sell", token_mint: ctx.migratedMint, pool: ctx.pool, amount: "5%", confirm: false },
    ],
    "POST /v1/cashback/check": [{ wallet: w0 }, { wallets: [w0, w1, ext] }],
    "POST /v1/cashback/claim/execute": [
      { confirm: false },
      { wallet: w1, claim_launchswap: false, confirm: false },
    ],
    "POST /v1/sol/consolidate/execute": [
      { destination_wallet: w0, source_wallets: [w1], fee_reserve_lamports: 5000, confirm: false },
    ],
    "POST /v1/sol/transfer/execute": [
      { destination_wallet: ext, amount: "0.001", confirm: false },
      { destination_wallet: w1, source_wallet: w0, amount: 0.01, confirm: false },
      { destination_wallet: ext, mint: ctx.mint, amount: "1000", confirm: false },
    ],
    "POST /v1/sol/split/execute": [
      { destinations: [{ wallet: w1 }], total_percent: 1, confirm: false },
      {
        destinations: [
          { wallet: ext, sol: "0.001" },
          { wallet: w1, percent: 50 },
        ],
        total_percent: 1,
        confirm: false,
      },
    ],
    "POST /v1/laser/create": [
      { name: "Fuzz", symbol: "FZ", uri, confirm: false },
      { name: "Fuzz", symbol: "FZ", metadataUrl: uri, initial_buy: "0.01", slippage: 5, confirm: false },
    ],
    "POST /v1/laser/bundle": [
      { accounts: [{ type: "buy", amount: "0.001" }], mint: ctx.mint, bundleTip: "0.00001", confirm: false },
      {
        accounts: [
          { type: "create", name: "Fz", symbol: "FZ", uri, initial_buy: "0.01" },
          { type: "buy", wallet: w1, amount: "0.001" },
        ],
        bundleTip: 0.00001,
        confirm: false,
      },
    ],
  };
}
