/**
 * The wallet's durable nonce account for raced trades, created on demand: read it; when it does not exist
 * (never created, or closed outside the service) create it with the wallet's key (the wallet pays the
 * rent-exempt minimum, stated in the answer, returned when the account is withdrawn), wait for it, and let one
 * slot pass (a nonce cannot be advanced in the slot it was initialized in).
 */
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import {
  createNonceInstructions,
  decodeNonce,
  NONCE_ACCOUNT_BYTES,
  nonceAddress,
  type NonceState,
} from "../../chain/landing/nonce.js";
import { ApiError } from "../../core/errors.js";
import type { SealedWallet, Vault } from "../../vault/index.js";

/** The answers of the wallet's durable nonce account (raced trades). */
export const NONCE_TEXTS = {
  notCreatedInTime: "the wallet's nonce account was not created in time",
  notCreated: "the wallet's nonce account was not created",
  otherAuthority: "the wallet's nonce account is controlled by another authority",
} as const;

/** The nonce as a trade answer shows it. */
export interface NonceAnswer {
  address: string;
  /** True when this request created it. */
  created: boolean;
  /** The account's lamports (its rent-exempt minimum), paid by the wallet, returned on withdraw. */
  rent_lamports: string;
}

/** What ensuring a nonce needs. */
export interface NonceDeps {
  chain: Pick<Chain, "rpc" | "assemble" | "submit">;
  vault: Pick<Vault, "withKeypair">;
  sleep?: (ms: number) => Promise<void>;
}

/** The wallet's nonce (created when missing); a nonce another authority controls is refused with a 409. */
export async function ensureNonce(
  deps: NonceDeps,
  wallet: SealedWallet,
): Promise<{ nonce: NonceState; answer: NonceAnswer }> {
  const owner = new PublicKey(wallet.publicKey);
  const address = await nonceAddress(owner);
  const read = async () => decodeNonce(address, (await deps.chain.rpc.getAccountInfo(address)).value);
  let nonce = await read();
  let created = false;
  if (nonce === null) {
    const rent = await deps.chain.rpc.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_BYTES);
    const tx = await deps.vault.withKeypair(wallet, async (payer) =>
      deps.chain.assemble({
        kind: "transfer",
        payer,
        instructions: createNonceInstructions(payer.publicKey, address, rent),
      }),
    );
    const sent = await deps.chain.submit(tx, {
      simulate: false,
      confirm: true,
      simulationFailedDetail: "nonce account creation failed",
    });
    if (!sent.confirmed) throw new ApiError(502, NONCE_TEXTS.notCreatedInTime);
    const slot = await deps.chain.rpc.getSlot();
    const sleep = deps.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
    for (let i = 0; i < 200 && (await deps.chain.rpc.getSlot()) <= slot; i++) await sleep(25);
    nonce = await read();
    if (nonce === null) throw new ApiError(502, NONCE_TEXTS.notCreated);
    created = true;
  }
  if (!nonce.authority.equals(owner)) {
    throw new ApiError(409, NONCE_TEXTS.otherAuthority, {
      nonce_account: address.toBase58(),
      authority: nonce.authority.toBase58(),
    });
  }
  return {
    nonce,
    answer: { address: address.toBase58(), created, rent_lamports: nonce.lamports.toString() },
  };
}
