import type { Chain, ChainTransaction } from "../../chain/chain.js";
import { TransactionTooLargeError } from "../../chain/tx-assembly.js";
import { ApiError, EXECUTION } from "../../core/errors.js";
import type { SealedWallet } from "../../vault/index.js";
import type { ExecutionDeps, TransactionBuilder } from "./types.js";

/**
 * Decrypts the wallet's key for one call of `build` plus signing and returns the signed transaction;
 * the secret is zeroed before this resolves. A transaction over 1232 bytes is a 400.
 */
export async function signWith(
  deps: Pick<ExecutionDeps, "vault"> & { chain: Pick<Chain, "assemble"> },
  wallet: SealedWallet,
  build: TransactionBuilder,
): Promise<ChainTransaction> {
  return deps.vault.withKeypair(wallet, async (payer) => {
    const built = await build(payer);
    try {
      return deps.chain.assemble({
        kind: built.computeKind,
        payer,
        instructions: built.instructions,
        ...(built.extraSigners !== undefined ? { extraSigners: built.extraSigners } : {}),
        ...(built.tip !== undefined ? { tip: built.tip } : {}),
        ...(built.version !== undefined ? { version: built.version } : {}),
        ...(built.computeUnitPriceMicroLamports !== undefined
          ? { computeUnitPriceMicroLamports: built.computeUnitPriceMicroLamports }
          : {}),
        ...(built.feeAccounts !== undefined ? { feeAccounts: built.feeAccounts } : {}),
      });
    } catch (e) {
      if (e instanceof TransactionTooLargeError) {
        throw new ApiError(400, EXECUTION.transactionTooLargePrefix + e.message);
      }
      throw e;
    }
  });
}
