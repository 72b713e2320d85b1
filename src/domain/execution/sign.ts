import type { Chain, ChainTransaction } from "../../chain/chain.js";
import { TransactionTooLargeError } from "../../chain/tx-assembly.js";
import { ApiError, EXECUTION } from "../../core/errors.js";
import type { SealedWallet } from "../../vault/index.js";
import type { ExecutionDeps, TransactionBuilder } from "./types.js";
import type { WorstCaseSpend } from "./worst-case-spend.js";

/**
 * Decrypts the wallet's key for one call of `build` plus signing and returns the signed transaction;
 * the secret is zeroed before this resolves. A transaction over 1232 bytes is a 400. With a spend guard
 * (issue 29), the key is re-read first (a freeze that committed while the request was building stops it here)
 * and the compiled transaction is judged by its worst case before it is signed.
 */
export async function signWith(
  deps: Pick<ExecutionDeps, "vault" | "spendGuard"> & { chain: Pick<Chain, "assemble"> },
  wallet: SealedWallet,
  build: TransactionBuilder,
): Promise<ChainTransaction> {
  const guard = deps.spendGuard;
  // Before the wallet is decrypted: a frozen or revoked key never gets that far.
  if (guard !== undefined) await guard.beforeSign();
  const inspect = guard?.inspect;
  return deps.vault.withKeypair(wallet, async (payer) => {
    const built = await build(payer);
    let spend: WorstCaseSpend | undefined;
    try {
      const tx = deps.chain.assemble({
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
        ...(inspect !== undefined ? { inspect: (t) => void (spend = inspect(t)) } : {}),
      });
      if (spend !== undefined) guard?.signed(tx.signature, spend);
      return tx;
    } catch (e) {
      if (e instanceof TransactionTooLargeError) {
        throw new ApiError(400, EXECUTION.transactionTooLargePrefix + e.message);
      }
      throw e;
    }
  });
}
