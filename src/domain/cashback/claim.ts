/**
 * Cashback claim (spec 4.7): managed wallet → the check calculation → one transaction per enabled source
 * with a positive amount, each through the shared execution pipeline, in a fixed order (bonding curve, then
 * launchswap). Claims are never bundled: one landing does not depend on the other.
 */
import { BONDING_CURVE, LAUNCHSWAP, type Venue } from "../../core/venues.js";
import { SPL_TOKEN_PROGRAM_ID } from "../../launch/programs.js";
import { PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { TokenInstruction } from "../../launch/spl-token.js";
import type { Chain } from "../../chain/chain.js";
import { buildClaimCurveCashback, buildClaimSwapCashback } from "../../launch/cashback-instructions.js";
import type { Store } from "../../store/index.js";
import { parseClaimRequest, type ClaimRequest } from "./rules.js";
import { readCashback } from "./check.js";
import type { RequestBody } from "../../core/request-fields.js";
import { ApiError, badRequest, SPEC } from "../../core/errors.js";
import { runSingleExecution } from "../execution/pipeline.js";
import { type ExecutionDeps } from "../execution/types.js";
import { withCompleted } from "../execution/completed.js";
import { selectWallet } from "../wallets/wallets.js";

/** Collaborators of the claim: wallet selection, the check's read, and the execution pipeline. */
export interface ClaimDeps {
  store: Pick<Store, "findWallet" | "findDefaultWallet" | "insertExecution" | "updateExecution">;
  chain: Pick<Chain, "rpc" | "assemble" | "submit" | "submitBundle" | "computeBudget">;
  vault: ExecutionDeps["vault"];
}

/** One claim transaction of the response. */
export interface ClaimTransaction {
  kind: Venue;
  /** Claimable before submission (the program pays what is claimable when the transaction lands). */
  claimable_lamports: bigint;
  /** The execution record's id (GET /v1/executions/{id}); issue 22. */
  execution_id: string;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
}

/** The claim response. */
export interface ClaimResult {
  wallet: string;
  transactions: ClaimTransaction[];
}

/** `POST /v1/cashback/claim/execute`: claims every enabled source that has something to claim. */
export async function claimCashback(
  deps: ClaimDeps,
  apiKeyId: number,
  body: RequestBody,
): Promise<ClaimResult> {
  return runClaim(deps, apiKeyId, parseClaimRequest(body));
}

/** Claims a managed wallet's cashback from a parsed request (the claim kind's run). */
export async function runClaim(
  deps: ClaimDeps,
  apiKeyId: number,
  request: ClaimRequest,
): Promise<ClaimResult> {
  const wallet = await selectWallet(deps.store, apiKeyId, request.wallet, {
    notFoundError: () => badRequest(SPEC.claim.walletSelection),
  });
  const check = await readCashback(deps.chain, [wallet.publicKey]);
  const entry = check.wallets[0];
  if (entry === undefined) throw new ApiError(502, SPEC.claim.readFailed);
  const user = new PublicKey(wallet.publicKey);

  const claims: { kind: ClaimTransaction["kind"]; amount: bigint }[] = [];
  if (request.claimBondingCurve && entry.launch_bonding_lamports > 0n) {
    claims.push({ kind: BONDING_CURVE, amount: entry.launch_bonding_lamports });
  }
  if (request.claimLaunchswap && entry.launchswap_wsol_lamports > 0n) {
    claims.push({ kind: LAUNCHSWAP, amount: entry.launchswap_wsol_lamports });
  }

  // One price for the whole request, read once, so every claim of it pays the same fee.
  const priceMicroLamports = deps.chain.computeBudget("claim").priceMicroLamports;
  const transactions: ClaimTransaction[] = [];
  for (const claim of claims) {
    const details = { kind: claim.kind, claimable_lamports: claim.amount.toString() };
    try {
      const result = await runSingleExecution({
        deps,
        apiKeyId,
        kind: "claim",
        wallet,
        request: { wallet: wallet.publicKey, source: claim.kind, confirm: request.confirm },
        build: async () => ({
          instructions:
            claim.kind === BONDING_CURVE
              ? await buildClaimCurveCashback(user)
              : keepWsol(await buildClaimSwapCashback(user)),
          computeKind: "claim",
          computeUnitPriceMicroLamports: priceMicroLamports,
        }),
        // The spec gives claims no simulate flag and no simulation text: the check just read the accounts.
        simulate: false,
        confirm: request.confirm,
        simulationFailedDetail: SPEC.claim.readFailed,
        details,
      });
      transactions.push({
        kind: claim.kind,
        claimable_lamports: claim.amount,
        execution_id: result.executionId,
        signature: result.signature,
        confirmed: result.confirmed,
        confirmation_status: result.confirmationStatus,
      });
    } catch (e) {
      throw withCompleted(e, "completed_transactions", transactions.map(completedView));
    }
  }
  return { wallet: wallet.publicKey, transactions };
}

/**
 * The spec pays swap cashback as WSOL into the wallet's WSOL associated account (created idempotently, rent
 * from the wallet). The launch builder also closes that account to unwrap it, which would turn the payout into
 * SOL and unwrap any WSOL the wallet already held there; the close is left out so the account keeps the WSOL.
 */
function keepWsol(instructions: TransactionInstruction[]): TransactionInstruction[] {
  return instructions.filter(
    (ix) => !(ix.programId.equals(SPL_TOKEN_PROGRAM_ID) && ix.data[0] === TokenInstruction.CloseAccount),
  );
}

function completedView(t: ClaimTransaction): Record<string, unknown> {
  return {
    kind: t.kind,
    claimable_lamports: t.claimable_lamports.toString(),
    execution_id: t.execution_id,
    signature: t.signature,
    confirmed: t.confirmed,
    confirmation_status: t.confirmation_status,
  };
}
