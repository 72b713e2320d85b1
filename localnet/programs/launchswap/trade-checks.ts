/**
 * The checks every pool trade makes before pricing, whatever its instruction generation (buy/sell and the
 * October 2026 v2 trades): the pool's mints exist and match their token programs, and the user's base and quote
 * token accounts exist for those mints. Returns what the trade reads from them.
 */
import type { PublicKey } from "@solana/web3.js";
import type { LedgerAccess } from "../types.js";
import { ANCHOR, fail } from "./account-check.js";
import type { PoolData } from "./codec.js";
import { readMint, readTokenAccount } from "./token-io.js";

/** The mints, token programs and user balances a pool trade works with. */
export interface TradeMints {
  baseMint: { supply: bigint; decimals: number; tokenProgram: PublicKey };
  quoteMint: { supply: bigint; decimals: number; tokenProgram: PublicKey };
  baseTokenProgram: PublicKey;
  quoteTokenProgram: PublicKey;
  userBase: bigint;
  userQuote: bigint;
}

/** Checks the pool's mints and the user's token accounts (Anchor's errors, as the program answers them). */
export function checkTradeMints(
  ledger: LedgerAccess,
  pool: Pick<PoolData, "base_mint" | "quote_mint">,
  accounts: { key(name: string): PublicKey },
): TradeMints {
  const baseMint = readMint(ledger, pool.base_mint);
  const quoteMint = readMint(ledger, pool.quote_mint);
  if (!baseMint || !quoteMint) fail(ANCHOR.AccountNotInitialized, "AccountNotInitialized", "base_mint");
  const baseTokenProgram = accounts.key("base_token_program");
  const quoteTokenProgram = accounts.key("quote_token_program");
  if (!baseMint.tokenProgram.equals(baseTokenProgram))
    fail(ANCHOR.ConstraintMintTokenProgram, "ConstraintMintTokenProgram", "base_mint");
  if (!quoteMint.tokenProgram.equals(quoteTokenProgram))
    fail(ANCHOR.ConstraintMintTokenProgram, "ConstraintMintTokenProgram", "quote_mint");
  const balances: bigint[] = [];
  for (const [name, mint] of [
    ["user_base_token_account", pool.base_mint],
    ["user_quote_token_account", pool.quote_mint],
  ] as const) {
    const t = readTokenAccount(ledger, accounts.key(name));
    if (!t) fail(ANCHOR.AccountNotInitialized, "AccountNotInitialized", name);
    if (!t.mint.equals(mint)) fail(ANCHOR.ConstraintTokenMint, "ConstraintTokenMint", name);
    balances.push(t.amount);
  }
  return {
    baseMint,
    quoteMint,
    baseTokenProgram,
    quoteTokenProgram,
    userBase: balances[0]!,
    userQuote: balances[1]!,
  };
}
