/**
 * GET /v1/wallets/{public_key}: one of the key's wallets with its durable nonce account (raced trades): the
 * address (derived from the wallet, so known before it exists), whether it exists, its lamports (the rent the
 * wallet paid, returned on withdraw), its current value and authority. One account read.
 */
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import { decodeNonce, nonceAddress } from "../../chain/landing/nonce.js";
import { upstreamDetail } from "../../chain/upstream-errors.js";
import { parseAddress } from "../../core/addresses.js";
import { TRADE_RULES, upstreamError } from "../../core/errors.js";
import type { Store } from "../../store/index.js";
import { selectWallet, walletView, type WalletView } from "./wallets.js";

/** The wallet's nonce account as the wallet answer shows it. */
export interface NonceAccountView {
  address: string;
  /** False until the wallet's first raced trade creates it (or after it was closed outside the service). */
  exists: boolean;
  /** The account's lamports (its rent-exempt minimum); null when it does not exist. */
  rent_lamports: string | null;
  /** The current nonce value (the blockhash the next raced trade uses); null when it does not exist. */
  nonce_value: string | null;
  /** Who may advance it (the wallet itself unless changed outside the service); null when it does not exist. */
  authority: string | null;
}

/** The wallet answer. */
export interface WalletDetail extends WalletView {
  nonce_account: NonceAccountView;
  /** The slot the nonce account was read at. */
  slot: number;
}

/** One wallet of the key with its nonce account (404 for a wallet the key does not hold). */
export async function walletDetail(
  deps: {
    store: Pick<Store, "findWallet" | "findDefaultWallet">;
    chain: { rpc: Pick<Chain["rpc"], "getAccountInfo"> };
  },
  apiKeyId: number,
  publicKey: unknown,
): Promise<WalletDetail> {
  const address = parseAddress(publicKey, TRADE_RULES.walletInvalid);
  const wallet = await selectWallet(deps.store, apiKeyId, address);
  const nonce = await nonceAddress(new PublicKey(wallet.publicKey));
  let read;
  try {
    read = await deps.chain.rpc.getAccountInfo(nonce);
  } catch (e) {
    throw upstreamError(upstreamDetail(e));
  }
  const state = decodeNonce(nonce, read.value);
  return {
    ...walletView(wallet),
    nonce_account: {
      address: nonce.toBase58(),
      exists: state !== null,
      rent_lamports: state?.lamports.toString() ?? null,
      nonce_value: state?.value ?? null,
      authority: state?.authority.toBase58() ?? null,
    },
    slot: read.slot,
  };
}
