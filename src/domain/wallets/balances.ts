/** Issue 22: a managed wallet's SOL and every token account (GET /v1/wallets/{public_key}/balances). */
import { SPL_TOKEN_PROGRAM_ID, TOKEN_2022_ID } from "../../launch/programs.js";
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import { formatLamportsAsSol, formatUnits } from "../../core/amounts.js";
import { parseAddress } from "../../core/addresses.js";
import { TRADE_RULES } from "../../core/errors.js";
import { upstreamDetail } from "../../chain/upstream-errors.js";
import { upstreamError } from "../../core/errors.js";
import type { Store } from "../../store/index.js";
import { selectWallet } from "./wallets.js";

/** One token account of the wallet. */
export interface TokenBalanceView {
  mint: string;
  token_account: string;
  token_program: string;
  /** Atomic units. */
  amount: string;
  decimals: number;
  /** `amount` with the mint's decimals. */
  ui_amount: string;
}

/** The balances answer. */
export interface WalletBalances {
  wallet: string;
  lamports: string;
  sol: string;
  tokens: TokenBalanceView[];
  /** The lowest slot the answer was read at. */
  slot: number;
}

/** Reads a wallet of the key: SOL and the token accounts of both token programs (three reads at once). */
export async function walletBalances(
  deps: {
    store: Pick<Store, "findWallet" | "findDefaultWallet">;
    chain: { rpc: Pick<Chain["rpc"], "getBalance" | "getTokenAccountsByOwner"> };
  },
  apiKeyId: number,
  publicKey: unknown,
): Promise<WalletBalances> {
  const address = parseAddress(publicKey, TRADE_RULES.walletInvalid);
  const wallet = await selectWallet(deps.store, apiKeyId, address);
  const owner = new PublicKey(wallet.publicKey);
  let reads;
  try {
    reads = await Promise.all([
      deps.chain.rpc.getBalance(owner),
      deps.chain.rpc.getTokenAccountsByOwner(owner, SPL_TOKEN_PROGRAM_ID),
      deps.chain.rpc.getTokenAccountsByOwner(owner, TOKEN_2022_ID),
    ]);
  } catch (e) {
    throw upstreamError(upstreamDetail(e));
  }
  const [sol, spl, t22] = reads;
  const tokens = [...spl.value, ...t22.value]
    .map((t) => ({
      mint: t.mint,
      token_account: t.address,
      token_program: t.tokenProgram,
      amount: t.amount.toString(),
      decimals: t.decimals,
      ui_amount: formatUnits(t.amount, t.decimals),
    }))
    .sort((a, b) => a.mint.localeCompare(b.mint) || a.token_account.localeCompare(b.token_account));
  return {
    wallet: wallet.publicKey,
    lamports: sol.value.toString(),
    sol: formatLamportsAsSol(sol.value),
    tokens,
    slot: Math.min(sol.slot, spl.slot, t22.slot),
  };
}
