/**
 * SOL split (spec 4.10): managed source → one batched read of the source and every destination → effective
 * reserve, spendable and the spec's allocation → one transaction with one system transfer per destination.
 */
import { PublicKey, SystemProgram } from "@solana/web3.js";
import { formatLamportsAsSol } from "../../core/amounts.js";
import { readAccounts } from "../../chain/read-accounts.js";
import { transferReserve, type SolDeps } from "./consolidate.js";
import type { RequestBody } from "../../core/request-fields.js";
import { SOL_RULES, SPEC } from "../../core/errors.js";
import { runSingleExecution } from "../execution/pipeline.js";
import { checkNewAccountFunding, reserveBreakdownBody, splitSpendable } from "./reserve.js";
import { allocateSplit } from "./split-allocation.js";
import { checkSplitDestinations, parseSplitRequest, type SplitRequest } from "./split-request.js";
import { selectWallet } from "../wallets/wallets.js";

/** One transfer of the split response. */
export interface SplitTransferView {
  wallet: string;
  lamports: bigint;
  sol: string;
  mode: "fixed" | "percent" | "equal";
}

/** The split response. */
export interface SplitResult {
  source_wallet: string;
  source_balance_lamports: bigint;
  fee_reserve_lamports: bigint;
  /** What fee_reserve_lamports is made of (issue 30), lamport strings. */
  fee_reserve_breakdown: Record<string, string>;
  spendable_lamports: bigint;
  transfer_total_lamports: bigint;
  transfer_total_sol: string;
  transfers: SplitTransferView[];
  /** The execution record's id (GET /v1/executions/{id}); issue 22. */
  execution_id: string;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
}

/** `POST /v1/sol/split/execute`: distributes a share of the source's spendable SOL in one transaction. */
export async function splitSol(deps: SolDeps, apiKeyId: number, body: RequestBody): Promise<SplitResult> {
  return runSplit(deps, apiKeyId, parseSplitRequest(body));
}

/** Distributes SOL from a parsed request (the split kind's run). */
export async function runSplit(deps: SolDeps, apiKeyId: number, request: SplitRequest): Promise<SplitResult> {
  const wallet = await selectWallet(deps.store, apiKeyId, request.source);
  checkSplitDestinations(wallet.publicKey, request.destinations);

  const { budget, reserve, breakdown } = transferReserve(deps.chain, request.feeReserveLamports);
  const destinations = request.destinations.map((d) => new PublicKey(d.wallet));
  const [sourceAccount, ...destinationAccounts] = await readAccounts(deps.chain, [
    new PublicKey(wallet.publicKey),
    ...destinations,
  ]);
  const balance = sourceAccount?.lamports ?? 0n;
  const spendable = splitSpendable({ balance, reserve });
  const allocation = allocateSplit({
    spendable,
    totalPercentHundredths: request.totalPercentHundredths,
    destinations: request.destinations,
  });
  allocation.transfers.forEach((t, i) =>
    checkNewAccountFunding({
      exists: destinationAccounts[i] != null,
      lamports: t.lamports,
      detail: SOL_RULES.newAccountRentSplit,
    }),
  );

  const details = {
    source_balance_lamports: balance.toString(),
    fee_reserve_lamports: reserve.toString(),
    transfer_total_lamports: allocation.transferTotal.toString(),
    transfers: allocation.transfers.map((t) => ({
      wallet: t.wallet,
      lamports: t.lamports.toString(),
      mode: t.mode,
    })),
  };
  const result = await runSingleExecution({
    deps,
    apiKeyId,
    kind: "split",
    wallet,
    request: {
      source_wallet: wallet.publicKey,
      destinations: request.destinations.map((d) => d.wallet),
      confirm: request.confirm,
    },
    build: (payer) => ({
      instructions: allocation.transfers.map((t, i) =>
        SystemProgram.transfer({
          fromPubkey: payer.publicKey,
          toPubkey: destinations[i] as PublicKey,
          lamports: t.lamports,
        }),
      ),
      computeKind: "transfer",
      computeUnitPriceMicroLamports: budget.priceMicroLamports,
    }),
    // Balances were just read and the allocation checked; the spec gives splits no simulate flag.
    simulate: false,
    confirm: request.confirm,
    simulationFailedDetail: SPEC.split.lowBalance,
    details,
  });
  return {
    source_wallet: wallet.publicKey,
    source_balance_lamports: balance,
    fee_reserve_lamports: reserve,
    fee_reserve_breakdown: reserveBreakdownBody(breakdown),
    spendable_lamports: spendable,
    transfer_total_lamports: allocation.transferTotal,
    transfer_total_sol: formatLamportsAsSol(allocation.transferTotal),
    transfers: allocation.transfers.map((t) => ({
      wallet: t.wallet,
      lamports: t.lamports,
      sol: formatLamportsAsSol(t.lamports),
      mode: t.mode,
    })),
    execution_id: result.executionId,
    signature: result.signature,
    confirmed: result.confirmed,
    confirmation_status: result.confirmationStatus,
  };
}
