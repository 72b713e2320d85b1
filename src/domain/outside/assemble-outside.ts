/**
 * Assembling a transaction for an outside wallet (issue 32): the chain's assembly with the outside public key as
 * fee payer (its signature slot left zero), the key's per-execution cap judging the compiled worst case, and a
 * transaction over 1232 bytes answered as the managed path answers it.
 */
import type { Chain, ChainAssembleInput, ChainTransaction } from "../../chain/chain.js";
import { TransactionTooLargeError } from "../../chain/tx-assembly.js";
import { ApiError, EXECUTION } from "../../core/errors.js";
import type { SpendGuard } from "../execution/types.js";
import type { SpendableTransaction } from "../execution/worst-case-spend.js";

/** An assembled outside transaction: the wire to answer, the message a send must carry, its worst case. */
export interface OutsideTransaction {
  tx: ChainTransaction;
  message: Uint8Array;
  spendable: SpendableTransaction;
}

/** The message bytes of a wire transaction: after the compact-u16 count and the signature slots. */
export function messageOf(wire: Uint8Array): Uint8Array {
  // At most 4 signers here: the count is one byte.
  return wire.subarray(1 + 64 * wire[0]!);
}

/** Assembles `input` (its payer the outside wallet's public key) under the key's guard. */
export function assembleOutside(
  deps: { chain: Pick<Chain, "assemble">; spendGuard?: SpendGuard },
  input: Omit<ChainAssembleInput, "inspect">,
): OutsideTransaction {
  let spendable: SpendableTransaction | undefined;
  const inspect = deps.spendGuard?.inspect;
  let tx: ChainTransaction;
  try {
    tx = deps.chain.assemble({
      ...input,
      inspect: (t) => {
        spendable = t;
        inspect?.(t);
      },
    });
  } catch (e) {
    if (e instanceof TransactionTooLargeError)
      throw new ApiError(400, EXECUTION.transactionTooLargePrefix + e.message);
    throw e;
  }
  return {
    tx,
    message: messageOf(tx.wire),
    spendable: spendable ?? { instructions: input.instructions, signatureCount: 1 },
  };
}
