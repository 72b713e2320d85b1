/**
 * Send asset (spec 4.9): managed source → one batched read (the source and destination, plus for tokens the
 * mint and both wallets' associated accounts under both token programs, since the mint's program is only
 * known from the read) → balance and reserve checks → one transaction through the shared pipeline.
 */
import { PublicKey } from "@solana/web3.js";
import type { AccountInfo } from "../../chain/rpc-client.js";
import { associatedTokenAddress, SPL_TOKEN_PROGRAM_ID, TOKEN_2022_ID } from "../../launch/programs.js";
import {
  buildSolTransfer,
  buildTokenTransfer,
  interpretTokenTransferRead,
  tokenTransferReadPlan,
} from "../../launch/transfer-instructions.js";
import { readAccounts } from "../../chain/read-accounts.js";
import { transferReserve, type SolDeps } from "./consolidate.js";
import type { RequestBody } from "../../core/request-fields.js";
import { badRequest, SOL_RULES, SPEC } from "../../core/errors.js";
import { runSingleExecution } from "../execution/pipeline.js";
import { type BuiltTransaction } from "../execution/types.js";
import {
  checkFeeBalance,
  checkNewAccountFunding,
  checkSolTransferBalance,
  rentExemptMinimum,
  reserveBreakdownBody,
} from "./reserve.js";
import {
  checkTransferEnds,
  parseTransferRequest,
  type TransferAsset,
  type TransferRequest,
} from "./transfer-request.js";
import { parseWholeTokens } from "../../core/amounts.js";
import { selectWallet } from "../wallets/wallets.js";

/** The send-asset response. */
export interface TransferResult {
  source_wallet: string;
  destination_wallet: string;
  mint: string;
  asset_type: "sol" | "spl_token";
  amount: string;
  amount_units: bigint;
  /** Issue 30: amount_units as decimal text (the spec fixes amount_units as a JSON integer; u64 exceeds 2^53). */
  amount_units_text: string;
  decimals: number;
  source_token_account: string | null;
  destination_token_account: string | null;
  fee_reserve_lamports: bigint;
  /** What fee_reserve_lamports is made of (issue 30), lamport strings. */
  fee_reserve_breakdown: Record<string, string>;
  /** The execution record's id (GET /v1/executions/{id}); issue 22. */
  execution_id: string;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
}

// Token account sizes the recipient's new associated account is charged rent for: SPL Token's 165 bytes;
// Token-2022 associated accounts carry the ImmutableOwner extension (165 + 1 account type + 4 TLV header).
const SPL_ACCOUNT_BYTES = 165;
const TOKEN_2022_ATA_BYTES = 170;

/** What the transfer will do, decided from the read before anything is signed. */
interface TransferPlan {
  mint: string;
  assetType: "sol" | "spl_token";
  decimals: number;
  /** The atomic units sent (lamports for SOL; token units, resolved from whole tokens when so asked). */
  units: bigint;
  sourceTokenAccount: string | null;
  destinationTokenAccount: string | null;
  build: (payer: PublicKey) => BuiltTransaction;
}

/** `POST /v1/sol/transfer/execute`: native SOL or a fungible token from a managed wallet to any address. */
export async function sendAsset(deps: SolDeps, apiKeyId: number, body: RequestBody): Promise<TransferResult> {
  return runTransfer(deps, apiKeyId, parseTransferRequest(body));
}

/** Sends SOL or a token from a parsed request (the transfer kind's run). */
export async function runTransfer(
  deps: SolDeps,
  apiKeyId: number,
  request: TransferRequest,
): Promise<TransferResult> {
  const wallet = await selectWallet(deps.store, apiKeyId, request.source);
  checkTransferEnds(wallet.publicKey as TransferRequest["destination"], request.destination);

  const { budget, reserve, breakdown } = transferReserve(deps.chain, request.feeReserveLamports);
  const source = new PublicKey(wallet.publicKey);
  const destination = new PublicKey(request.destination);
  const plan =
    request.asset.kind === "sol"
      ? await planSolTransfer(deps, source, destination, request.asset.lamports, reserve)
      : await planTokenTransfer(deps, source, destination, request.asset, reserve);

  const amountUnits = request.asset.kind === "sol" ? request.asset.lamports : plan.units;
  const details = {
    destination_wallet: request.destination,
    mint: plan.mint,
    amount_units: amountUnits.toString(),
    fee_reserve_lamports: reserve.toString(),
  };
  const result = await runSingleExecution({
    deps,
    apiKeyId,
    kind: "transfer",
    wallet,
    request: {
      source_wallet: wallet.publicKey,
      destination_wallet: request.destination,
      mint: plan.mint,
      amount: request.amountText,
      confirm: request.confirm,
    },
    build: (payer) => ({
      ...plan.build(payer.publicKey),
      computeUnitPriceMicroLamports: budget.priceMicroLamports,
    }),
    // The read above checked balances and accounts; the spec gives transfers no simulate flag.
    simulate: false,
    confirm: request.confirm,
    simulationFailedDetail: SPEC.transfer.lowBalance,
    details,
  });
  return {
    source_wallet: wallet.publicKey,
    destination_wallet: request.destination,
    mint: plan.mint,
    asset_type: plan.assetType,
    amount: request.amountText,
    amount_units: amountUnits,
    amount_units_text: amountUnits.toString(),
    decimals: plan.decimals,
    source_token_account: plan.sourceTokenAccount,
    destination_token_account: plan.destinationTokenAccount,
    fee_reserve_lamports: reserve,
    fee_reserve_breakdown: reserveBreakdownBody(breakdown),
    execution_id: result.executionId,
    signature: result.signature,
    confirmed: result.confirmed,
    confirmation_status: result.confirmationStatus,
  };
}

async function planSolTransfer(
  deps: SolDeps,
  source: PublicKey,
  destination: PublicKey,
  lamports: bigint,
  reserve: bigint,
): Promise<TransferPlan> {
  const [sourceAccount, destinationAccount] = await readAccounts(deps.chain, [source, destination]);
  checkSolTransferBalance({ balance: sourceAccount?.lamports ?? 0n, amount: lamports, reserve });
  checkNewAccountFunding({ exists: destinationAccount != null, lamports, detail: SOL_RULES.newAccountRent });
  return {
    mint: "SOL",
    assetType: "sol",
    decimals: 9,
    units: lamports,
    sourceTokenAccount: null,
    destinationTokenAccount: null,
    build: (payer) => ({
      instructions: buildSolTransfer({ from: payer, to: destination, lamports }),
      computeKind: "transfer",
    }),
  };
}

async function planTokenTransfer(
  deps: SolDeps,
  source: PublicKey,
  destination: PublicKey,
  asset: Extract<TransferAsset, { kind: "token" }>,
  reserve: bigint,
): Promise<TransferPlan> {
  const mint = new PublicKey(asset.mint);
  const tokenPlan = tokenTransferReadPlan({ mint, from: source });
  const destinationAtas = [
    associatedTokenAddress(destination, mint, TOKEN_2022_ID),
    associatedTokenAddress(destination, mint, SPL_TOKEN_PROGRAM_ID),
  ];
  const accounts = await readAccounts(deps.chain, [...tokenPlan.addresses, source, ...destinationAtas]);
  const n = tokenPlan.addresses.length;
  const token = interpretTokenTransferRead(tokenPlan, accounts.slice(0, n));
  // Issue 30: `amount_tokens` becomes atomic units with the decimals this read found on the mint.
  const units = asset.units ?? parseWholeTokens(asset.wholeTokens, token.decimals);
  if (token.sourceBalance < units) throw badRequest(SPEC.transfer.lowTokenBalance);

  const is2022 = token.tokenProgram.equals(TOKEN_2022_ID);
  const destinationAta = destinationAtas[is2022 ? 0 : 1] as PublicKey;
  const destinationAccount: AccountInfo | null = accounts[n + (is2022 ? 1 : 2)] ?? null;
  // Created (idempotently, so a race with another creator is harmless) only when the read did not find it.
  const createRecipientAta = destinationAccount === null;
  const rent = createRecipientAta ? rentExemptMinimum(is2022 ? TOKEN_2022_ATA_BYTES : SPL_ACCOUNT_BYTES) : 0n;
  checkFeeBalance({ balance: accounts[n]?.lamports ?? 0n, reserve: reserve + rent });
  return {
    mint: mint.toBase58(),
    assetType: "spl_token",
    decimals: token.decimals,
    units,
    sourceTokenAccount: token.sourceTokenAccount.toBase58(),
    destinationTokenAccount: destinationAta.toBase58(),
    build: (payer) => ({
      instructions: buildTokenTransfer({
        mint,
        tokenProgram: token.tokenProgram,
        decimals: token.decimals,
        from: payer,
        to: destination,
        amount: units,
        createRecipientAta,
      }),
      computeKind: "transfer",
    }),
  };
}
