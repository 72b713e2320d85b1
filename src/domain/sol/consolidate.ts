/**
 * SOL consolidation (spec 4.8): sources (named or every active wallet but the destination) → one batched
 * balance read → every source planned against the effective reserve before anything is sent → one
 * transaction per source through the shared pipeline, in source order (not atomic across sources).
 * Also holds the small I/O helpers the other SOL endpoints and the claim share.
 */
import { PublicKey, SystemProgram } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import type { Store, WalletRecord } from "../../store/index.js";
import type { Address } from "../../core/addresses.js";
import { formatLamportsAsSol } from "../../core/amounts.js";
import {
  defaultConsolidationSources,
  parseConsolidateRequest,
  type ConsolidateRequest,
} from "./consolidate-request.js";
import type { RequestBody } from "../../core/request-fields.js";
import { ApiError, FOUNDATION, SOL_RULES, SPEC } from "../../core/errors.js";
import { runSingleExecution } from "../execution/pipeline.js";
import { type ExecutionDeps } from "../execution/types.js";
import { withCompleted } from "../execution/completed.js";
import { readAccounts } from "../../chain/read-accounts.js";
import {
  checkNewAccountFunding,
  planConsolidation,
  reserveBreakdownBody,
  reserveBreakdownText,
  transactionReserveBreakdown,
  type ReserveBreakdown,
} from "./reserve.js";

/** Collaborators of the SOL endpoints: wallets, one read, compute budget and tip, the execution pipeline. */
export interface SolDeps {
  store: Pick<
    Store,
    "findWallet" | "findDefaultWallet" | "listWallets" | "insertExecution" | "updateExecution"
  >;
  chain: Pick<Chain, "rpc" | "assemble" | "submit" | "submitBundle" | "computeBudget" | "relayTip">;
  vault: ExecutionDeps["vault"];
}

/** One source's transaction of the consolidate response. */
export interface ConsolidationTransaction {
  source_wallet: string;
  source_balance_lamports: bigint;
  transfer_lamports: bigint;
  transfer_sol: string;
  /** The execution record's id (GET /v1/executions/{id}); issue 22. */
  execution_id: string;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
}

/** The consolidate response. */
export interface ConsolidateResult {
  destination_wallet: string;
  /** The effective reserve each source keeps (before the fees and tip it pays out of it). */
  fee_reserve_lamports: bigint;
  /** What fee_reserve_lamports is made of (issue 30), lamport strings. */
  fee_reserve_breakdown: Record<string, string>;
  total_transfer_lamports: bigint;
  total_transfer_sol: string;
  transactions: ConsolidationTransaction[];
}

/** `POST /v1/sol/consolidate/execute`: sweeps every source down to the effective reserve. */
export async function consolidateSol(
  deps: SolDeps,
  apiKeyId: number,
  body: RequestBody,
): Promise<ConsolidateResult> {
  return runConsolidate(deps, apiKeyId, parseConsolidateRequest(body));
}

/** Sweeps SOL from a parsed request (the consolidate kind's run). */
export async function runConsolidate(
  deps: SolDeps,
  apiKeyId: number,
  request: ConsolidateRequest,
): Promise<ConsolidateResult> {
  const sources = await consolidationSources(deps.store, apiKeyId, request.destination, request.sources);

  const { budget, reserve, breakdown } = transferReserve(deps.chain, request.feeReserveLamports);
  const feeReserveBreakdown = reserveBreakdownBody(breakdown);
  const destination = new PublicKey(request.destination);
  const accounts = await readAccounts(deps.chain, [
    ...sources.map((s) => new PublicKey(s.publicKey)),
    destination,
  ]);
  const plan = planConsolidation(
    sources.map((s, i) => ({ wallet: s.publicKey, balanceLamports: accounts[i]?.lamports ?? 0n })),
    reserve,
    { reason: reserveBreakdownText(breakdown), fee_reserve_breakdown: feeReserveBreakdown },
  );
  const first = plan.transfers[0];
  if (first !== undefined) {
    checkNewAccountFunding({
      exists: accounts[sources.length] != null,
      lamports: first.transferLamports,
      detail: SOL_RULES.newAccountRent,
    });
  }

  const transactions: ConsolidationTransaction[] = [];
  for (const [i, transfer] of plan.transfers.entries()) {
    const wallet = sources[i] as WalletRecord;
    const details = {
      destination_wallet: request.destination,
      source_balance_lamports: transfer.balanceLamports.toString(),
      transfer_lamports: transfer.transferLamports.toString(),
      fee_reserve_lamports: reserve.toString(),
    };
    try {
      const result = await runSingleExecution({
        deps,
        apiKeyId,
        kind: "consolidate",
        wallet,
        request: {
          destination_wallet: request.destination,
          source_wallet: wallet.publicKey,
          confirm: request.confirm,
        },
        build: (payer) => ({
          instructions: [
            SystemProgram.transfer({
              fromPubkey: payer.publicKey,
              toPubkey: destination,
              lamports: transfer.transferLamports,
            }),
          ],
          computeKind: "transfer",
          computeUnitPriceMicroLamports: budget.priceMicroLamports,
        }),
        // The balances were just read and checked; the spec gives these endpoints no simulate flag.
        simulate: false,
        confirm: request.confirm,
        simulationFailedDetail: SPEC.transfer.lowBalance,
        details,
      });
      transactions.push({
        source_wallet: wallet.publicKey,
        source_balance_lamports: transfer.balanceLamports,
        transfer_lamports: transfer.transferLamports,
        transfer_sol: formatLamportsAsSol(transfer.transferLamports),
        execution_id: result.executionId,
        signature: result.signature,
        confirmed: result.confirmed,
        confirmation_status: result.confirmationStatus,
      });
    } catch (e) {
      // Earlier sources may already be on chain: the error says which, so the caller need not guess.
      throw withCompleted(
        e,
        "completed_transactions",
        transactions.map((t) => ({
          source_wallet: t.source_wallet,
          transfer_lamports: t.transfer_lamports.toString(),
          execution_id: t.execution_id,
          signature: t.signature,
          confirmed: t.confirmed,
          confirmation_status: t.confirmation_status,
        })),
      );
    }
  }
  return {
    destination_wallet: request.destination,
    fee_reserve_lamports: reserve,
    fee_reserve_breakdown: feeReserveBreakdown,
    total_transfer_lamports: plan.totalLamports,
    total_transfer_sol: formatLamportsAsSol(plan.totalLamports),
    transactions,
  };
}

/** The named sources (each must be one of the key's wallets) or every wallet of the key but the destination. */
async function consolidationSources(
  store: SolDeps["store"],
  apiKeyId: number,
  destination: Address,
  named: readonly Address[] | undefined,
): Promise<WalletRecord[]> {
  // One query for the key's wallets, whichever way the sources are chosen.
  const wallets = (await store.listWallets(apiKeyId)).filter((w) => w.status === "active");
  if (named !== undefined) {
    const byKey = new Map(wallets.map((w) => [w.publicKey, w]));
    return named.map((address) => {
      const wallet = byKey.get(address);
      // Same answer as every other endpoint for a wallet that is not the key's (never "belongs to another key").
      if (wallet === undefined) throw new ApiError(404, FOUNDATION.walletNotFound);
      return wallet;
    });
  }
  const chosen = new Set<string>(
    defaultConsolidationSources(
      wallets.map((w) => w.publicKey as Address),
      destination,
    ),
  );
  return wallets.filter((w) => chosen.has(w.publicKey));
}

/**
 * A transfer transaction's compute budget and the effective reserve it implies. The budget is read once and
 * its price is pinned on the built transaction (`computeUnitPriceMicroLamports`), so a background refresh of
 * the fee estimate between the reserve and the signing cannot make a transaction cost more than its reserve.
 */
export function transferReserve(
  chain: Pick<Chain, "computeBudget" | "relayTip">,
  requested: bigint,
): { budget: ReturnType<Chain["computeBudget"]>; reserve: bigint; breakdown: ReserveBreakdown } {
  const budget = chain.computeBudget("transfer");
  const breakdown = transactionReserveBreakdown({ requested, relayTip: chain.relayTip().lamports, budget });
  return { budget, reserve: breakdown.totalLamports, breakdown };
}
