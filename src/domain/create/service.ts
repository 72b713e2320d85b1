/**
 * POST /v1/laser/create (spec 4.4): parse → select the creator wallet → quote the dev buy against the fresh
 * curve (Global and FeeConfig from the chain caches: no read on the request path) → create_v2 (+ buy) with a
 * server-generated mint key → the shared pipeline, always simulating first → the spec's response.
 */
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import type { Store } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import { newMintKey } from "./mint-key.js";
import { planCreate, type PlannedInitialBuy } from "./plan.js";
import type { CreateRequest } from "./request.js";
import { SPEC } from "../../core/errors.js";
import { recordPending } from "../execution/records.js";
import type { ExecutionDeps } from "../execution/types.js";
import { signWith } from "../execution/sign.js";
import { submitRecorded } from "../execution/pipeline.js";
import { createConfigs } from "../trade/configs.js";
import { selectWallet } from "../wallets/wallets.js";

/** Collaborators of a create. */
export interface CreateDeps {
  /** Set on a dry run (issue 19): the pipeline simulates and describes instead of recording and sending. */
  dryRun?: ExecutionDeps["dryRun"];
  /** The request key's checks and record-time policy step (absent outside a keyed request). */
  spendGuard?: ExecutionDeps["spendGuard"];
  store: Pick<Store, "findWallet" | "findDefaultWallet" | "insertExecution" | "updateExecution">;
  chain: Pick<Chain, "caches" | "assemble" | "submit" | "submitBundle"> &
    Partial<Pick<Chain, "programGeneration">>;
  vault: Pick<Vault, "withKeypair">;
  /** Uniform [0, 1) for fee-recipient choice; default Math.random. */
  random?: () => number;
}

/** The spec's `initial_buy` object. */
export interface InitialBuyResponse {
  amount: string;
  amount_lamports: bigint;
  slippage_bps: number;
  expected_output: string;
}

/** The spec's token creation result. */
export interface CreateResponse {
  mint: string;
  creator: string;
  metadata_uri: string;
  /** The execution record's id (GET /v1/executions/{id}); issue 22. */
  execution_id: string;
  signature: string;
  confirmed: boolean;
  confirmation_status: string | null;
  initial_buy?: InitialBuyResponse;
}

/** The response's initial_buy object of a planned dev buy. */
function initialBuyResponse(buy: PlannedInitialBuy): InitialBuyResponse {
  return {
    amount: buy.text,
    amount_lamports: buy.lamports,
    slippage_bps: Number(buy.slippageBps),
    expected_output: buy.minTokensOut.toString(),
  };
}

/** What the execution record keeps of a create request (nothing secret: the mint key is never stored). */
export function createRequestSummary(
  req: Omit<CreateRequest, "confirm" | "wallet">,
): Record<string, unknown> {
  return {
    name: req.name,
    symbol: req.symbol,
    uri: req.uri,
    mayhem_mode: req.mayhemMode,
    cashback: req.cashback,
    initial_buy: req.initialBuy?.text ?? null,
    slippage_bps: req.initialBuy === undefined ? null : Number(req.initialBuy.slippageBps),
  };
}

/**
 * Creates a token from a parsed request (the create kind's run). The transaction is always simulated first: a
 * program refusal (for example 6082 for a cashback coin on today's program) is the spec's 400 `token creation
 * simulation failed` with the decoded program error, and nothing is sent.
 */
export async function runCreate(
  deps: CreateDeps,
  apiKeyId: number,
  request: CreateRequest,
): Promise<CreateResponse> {
  const wallet = await selectWallet(deps.store, apiKeyId, request.wallet);
  const config = createConfigs(deps.chain);
  const creator = new PublicKey(wallet.publicKey);

  const mintKey = newMintKey();
  const mint = mintKey.keypair.publicKey.toBase58();
  let plan;
  let tx;
  try {
    plan = await planCreate({
      config,
      fields: request,
      creator,
      mint: mintKey.keypair.publicKey,
      ...(deps.random !== undefined ? { random: deps.random } : {}),
    });
    const instructions = plan.instructions;
    tx = await signWith(deps, wallet, () => ({
      instructions,
      extraSigners: [mintKey.keypair],
      computeKind: "create",
    }));
  } finally {
    mintKey.wipe();
  }

  const details = {
    mint,
    creator: wallet.publicKey,
    metadata_uri: request.uri,
    ...(plan.initialBuy !== null
      ? {
          initial_buy: {
            ...initialBuyResponse(plan.initialBuy),
            amount_lamports: plan.initialBuy.lamports.toString(),
          },
        }
      : {}),
  };
  const executionId = await recordPending(
    deps.store,
    {
      apiKeyId,
      kind: "create",
      wallet: wallet.publicKey,
      signatures: [tx.signature],
      request: { ...createRequestSummary(request), confirm: request.confirm, wallet: request.wallet ?? null },
      lastValidBlockHeight: tx.lastValidBlockHeight,
      computeUnitPriceMicroLamports: tx.computeUnitPriceMicroLamports,
    },
    deps.dryRun,
    deps.spendGuard,
  );
  const { result } = await submitRecorded(
    deps,
    executionId,
    tx,
    { simulate: true, confirm: request.confirm, simulationFailedDetail: SPEC.create.simulationFailed },
    details,
    // The dev buy's fill (issue 33): the positions ledger starts the creator's position from it.
    plan.initialBuy !== null ? { wallet: wallet.publicKey, mint, side: "buy" } : undefined,
  );
  return {
    mint,
    creator: wallet.publicKey,
    metadata_uri: request.uri,
    execution_id: executionId,
    signature: result.signature,
    confirmed: result.confirmed,
    confirmation_status: result.confirmationStatus,
    ...(plan.initialBuy !== null ? { initial_buy: initialBuyResponse(plan.initialBuy) } : {}),
  };
}
