/**
 * POST /v1/laser/bundle (spec 4.5): parse the shape → resolve every leg's wallet → read chain state once
 * (create-led: nothing to read, Global / FeeConfig are cached; existing token: one getMultipleAccounts) →
 * quote → build and sign every leg in order (compute budget in each, the bundle tip only in the first leg)
 * → record ONE execution with every leg's wallet and signature → sendBundle → confirm → record the outcome.
 * Built on the shared pipeline's lower-level parts (`signWith`, `recordPending`, `submitBundleRecorded`).
 */
import { LAUNCHSWAP } from "../../core/venues.js";
import { createHash } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import type { Chain, ChainTransaction } from "../../chain/chain.js";
import type { Store, WalletRecord } from "../../store/index.js";
import type { Vault } from "../../vault/index.js";
import type { Address } from "../../core/addresses.js";
import { type CreateLedPlan, planCreateLedBundle } from "./legs.js";
import { readAccounts } from "../../chain/read-accounts.js";
import { insufficientSol, lamportsNeeded, TOKEN_ACCOUNT_RENT_LAMPORTS } from "../execution/affordability.js";
import { tradeSolIn } from "../trade/bounds.js";
import type { BundleBuyLeg, BundleRequest, BundleSellLeg } from "./shape.js";
import { resolveLegWallets } from "./wallets.js";
import { newMintKey } from "../create/mint-key.js";
import { createRequestSummary } from "../create/service.js";
import { recordPending } from "../execution/records.js";
import type { ExecutionDeps, VenueCheck } from "../execution/types.js";
import { signWith } from "../execution/sign.js";
import { submitBundleRecorded } from "../execution/pipeline.js";
import type { FillRequest } from "../execution/fill.js";
import { answerOf } from "../execution/failure.js";
import { cachedTradeConfigs, chainGeneration, createConfigs } from "../trade/configs.js";
import { quoteRead, tradeInstructions } from "../trade/plan.js";
import { readTrade } from "../trade/read.js";
import type { TradeIntent } from "../trade/request.js";

/** Collaborators of a bundle. */
export interface BundleDeps {
  /** Set on a dry run (issue 19): the pipeline simulates and describes instead of recording and sending. */
  dryRun?: ExecutionDeps["dryRun"];
  /** The request key's checks and record-time policy step (absent outside a keyed request). */
  spendGuard?: ExecutionDeps["spendGuard"];
  store: Pick<Store, "findWallet" | "findDefaultWallet" | "insertExecution" | "updateExecution">;
  chain: Pick<Chain, "rpc" | "caches" | "assemble" | "submit" | "submitBundle" | "bundleTipAccounts"> &
    Partial<Pick<Chain, "computeBudget" | "programGeneration">>;
  vault: Pick<Vault, "withKeypair">;
  /** Uniform [0, 1) for fee-recipient and tip-account choice; default Math.random. */
  random?: () => number;
  /** Issue 19: the key's venue rule on an existing token's routed venue, before anything is signed. */
  checkVenue?: VenueCheck;
  /** TIP_MAX_SOL in lamports: the bundle's tip is bounded where it is parsed. */
  tipMaxLamports: bigint;
}

/** One leg of the response, in request order. */
export interface BundleLegResult {
  index: number;
  type: "create" | "buy" | "sell";
  wallet: string;
  signature: string;
}

/** The spec's bundle result. */
export interface BundleResponse {
  /** The execution record's id (GET /v1/executions/{id}); issue 22. */
  execution_id: string;
  bundle_id: string;
  results: BundleLegResult[];
  mint: string;
  confirmed: boolean;
  confirmation_status: "confirmed" | "finalized" | null;
}

/** What the legs became before anything is recorded or sent. */
interface SignedBundle {
  mint: string;
  txs: ChainTransaction[];
  /** Per leg: SOL its instructions move out of its wallet and rent of accounts it creates (issue 22). */
  legCosts: { spend: bigint; rent: bigint; computeKind: "create" | "trade"; tipped: boolean }[];
  /** Wallet lamports already read with the legs (an existing-token trade's read), so none is read again. */
  balances?: Map<string, bigint>;
}

/**
 * Builds, signs and submits a parsed bundle (the bundle kind's run); every leg's wallet must belong to the key
 * (404 `wallet not found` with `index`).
 */
export async function runBundle(
  deps: BundleDeps,
  apiKeyId: number,
  request: BundleRequest,
): Promise<BundleResponse> {
  const wallets = await resolveLegWallets(deps.store, apiKeyId, request.legs);
  const tip = { accounts: await deps.chain.bundleTipAccounts(), lamports: request.tipLamports };

  const signed =
    request.shape === "create-led"
      ? await signCreateLed(deps, request, wallets, tip)
      : await signExistingTrade(deps, request, wallets, tip);

  await refuseUnaffordableLegs(deps, wallets, signed, tip.lamports);

  const results: BundleLegResult[] = request.legs.map((leg, index) => ({
    index,
    type: leg.type,
    wallet: wallets[index]!.publicKey, // one wallet per leg (resolveLegWallets)
    signature: signed.txs[index]!.signature, // one transaction per leg
  }));
  const executionId = await recordPending(
    deps.store,
    {
      apiKeyId,
      kind: "bundle",
      wallet: wallets[0]!.publicKey,
      wallets: [...new Set(wallets.map((w) => w.publicKey))],
      signatures: signed.txs.map((t) => t.signature),
      // Known before sending (the relay derives it from the signatures); the relay's own answer overwrites it.
      bundleId: bundleIdOf(signed.txs.map((t) => t.signature)),
      request: bundleRequestSummary(request, wallets, signed.mint),
      lastValidBlockHeight: Math.min(...signed.txs.map((t) => t.lastValidBlockHeight)),
      computeUnitPriceMicroLamports: signed.txs
        .map((t) => t.computeUnitPriceMicroLamports)
        .reduce((a, b) => (b > a ? b : a), 0n),
    },
    deps.dryRun,
    deps.spendGuard,
  );
  const result = await submitBundleRecorded(
    deps,
    executionId,
    signed.txs,
    { confirm: request.confirm },
    { mint: signed.mint, results },
    legFillRequests(request, results, signed.mint, tip),
  ).catch((e: unknown) => {
    // Issue 30: a 502 after the legs were signed carries what the 200 would (legs, mint) beside the spec's
    // detail, so a timed-out bundle (`confirmed: false`) can be followed like an unconfirmed trade.
    const answer = answerOf(e);
    if (answer !== undefined) Object.assign(answer.extra, { mint: signed.mint, results });
    throw e;
  });
  return {
    execution_id: executionId,
    bundle_id: result.bundleId,
    results,
    mint: signed.mint,
    confirmed: result.confirmed,
    confirmation_status: result.confirmationStatus,
  };
}

/** A bundle's tip: the relay's tip accounts and the lamports the first leg pays. */
export type Tip = { accounts: PublicKey[]; lamports: bigint };

/** Issue 33: whose fill each leg reads for the positions ledger (a create leg only with its dev buy). */
export function legFillRequests(
  request: BundleRequest,
  results: readonly Pick<BundleLegResult, "wallet">[],
  mint: string,
  tip: Tip,
): (FillRequest | null)[] {
  const tipAccounts = tip.accounts.map((a) => a.toBase58());
  return request.legs.map((leg, i): FillRequest | null =>
    leg.type === "create" && leg.create.initialBuy === undefined
      ? null
      : { wallet: results[i]!.wallet, mint, side: leg.type === "sell" ? "sell" : "buy", tipAccounts },
  );
}

// The create leg carries the bundle tip; the mint key is wiped as soon as that leg is signed.
async function signCreateLed(
  deps: BundleDeps,
  request: Extract<BundleRequest, { shape: "create-led" }>,
  wallets: WalletRecord[],
  tip: Tip,
): Promise<SignedBundle> {
  const config = createConfigs(deps.chain);
  const mintKey = newMintKey();
  const mint = mintKey.keypair.publicKey;
  const txs: ChainTransaction[] = [];
  let legCosts: SignedBundle["legCosts"] = [];
  try {
    const plan = await planCreateLedBundle({
      config,
      create: request.create.create,
      buys: request.buys,
      wallets: wallets.map((w) => new PublicKey(w.publicKey)),
      mint,
      ...(deps.random !== undefined ? { random: deps.random } : {}),
    });
    legCosts = createLedCosts(plan);
    for (const [i, instructions] of plan.legInstructions.entries()) {
      const first = i === 0;
      txs.push(
        await signWith(deps, wallets[i]!, () => ({
          instructions,
          computeKind: first ? "create" : "trade",
          tip: first ? tip : "none",
          ...(first ? { extraSigners: [mintKey.keypair] } : {}),
        })),
      );
      if (first) mintKey.wipe();
    }
  } finally {
    mintKey.wipe();
  }
  return { mint: mint.toBase58(), txs, legCosts };
}

/** What each leg of a create-led bundle moves out of its wallet: the dev buy, then each buyer's SOL. */
function createLedCosts(plan: CreateLedPlan): SignedBundle["legCosts"] {
  return [
    {
      spend: plan.create.initialBuy?.lamports ?? 0n,
      rent: plan.create.initialBuy !== null ? TOKEN_ACCOUNT_RENT_LAMPORTS : 0n,
      computeKind: "create",
      tipped: true,
    },
    ...plan.buys.map((b) => ({
      spend: b.lamports,
      rent: TOKEN_ACCOUNT_RENT_LAMPORTS,
      computeKind: "trade" as const,
      tipped: false,
    })),
  ];
}

// One trade of an existing token: the trade endpoint's read, quote and builders, with the bundle tip.
async function signExistingTrade(
  deps: BundleDeps,
  request: Extract<BundleRequest, { shape: "existing-token" }>,
  wallets: WalletRecord[],
  tip: Tip,
): Promise<SignedBundle> {
  const wallet = wallets[0]!; // exactly one leg
  const intent = tradeIntentOf(request.mint, request.trade, request.confirm);
  const read = await readTrade(deps.chain.rpc, intent, new PublicKey(wallet.publicKey));
  deps.checkVenue?.(read.venue);
  const configs = cachedTradeConfigs(deps.chain.caches, chainGeneration(deps.chain));
  const quote = quoteRead(intent, read, configs);
  const instructions = await tradeInstructions(read, quote, configs, deps.random);
  const tx = await signWith(deps, wallet, () => ({ instructions, computeKind: "trade", tip }));
  const buying = quote.args.instruction !== "sell";
  const accounts =
    (buying && !read.userAtaExists ? 1n : 0n) +
    (buying && read.venue === LAUNCHSWAP && !read.userWsolExists ? 1n : 0n);
  return {
    mint: read.mint.toBase58(),
    txs: [tx],
    ...(read.userLamports !== undefined
      ? { balances: new Map([[wallet.publicKey, read.userLamports]]) }
      : {}),
    legCosts: [
      {
        spend: tradeSolIn(quote),
        rent: accounts * TOKEN_ACCOUNT_RENT_LAMPORTS,
        computeKind: "trade",
        tipped: true,
      },
    ],
  };
}

/** The block engine's bundle id: lowercase hex SHA-256 of the legs' first signatures (base58), comma-joined. */
export function bundleIdOf(signatures: readonly string[]): string {
  return createHash("sha256").update(signatures.join(","), "utf8").digest("hex");
}

/** The trade intent of an existing-token bundle leg (bundles are never simulated: the relay is atomic). */
export function tradeIntentOf(
  mint: Address,
  leg: BundleBuyLeg | BundleSellLeg,
  confirm: boolean,
): TradeIntent {
  const solBuy = leg.type === "buy" && leg.denominatedInSol;
  return {
    action: leg.type,
    mint,
    pool: leg.pool ?? null,
    amountText: leg.amountText,
    amount: solBuy ? { kind: "sol", lamports: leg.amount } : { kind: "tokens", units: leg.amount },
    denominatedInSol: solBuy,
    slippageBps: leg.slippageBps,
    simulate: false,
    confirm,
    measureTiming: false,
    wallet: leg.wallet ?? null,
  };
}

/**
 * What the execution record keeps of a bundle request: the legs with their resolved wallets and the mint (a
 * create-led bundle's new one too, so reconciliation can read the legs' fills of a record left pending), no
 * secrets.
 */
export function bundleRequestSummary(
  request: BundleRequest,
  wallets: readonly Pick<WalletRecord, "publicKey">[],
  mint: string,
): Record<string, unknown> {
  const legs = request.legs.map((leg, index) => {
    const wallet = wallets[index]!.publicKey;
    if (leg.type === "create") return { index, type: leg.type, wallet, ...createRequestSummary(leg.create) };
    return {
      index,
      type: leg.type,
      wallet,
      amount: leg.amountText,
      denominated_in_sol: leg.type === "buy" ? leg.denominatedInSol : false,
      slippage_bps: Number(leg.slippageBps),
      pool: leg.pool ?? null,
    };
  });
  return {
    shape: request.shape,
    mint: request.shape === "existing-token" ? request.mint : mint,
    bundle_tip_lamports: request.tipLamports.toString(),
    confirm: request.confirm,
    legs,
  };
}

/**
 * Issue 22: before anything is recorded or sent, each leg's wallet must hold its leg's floor cost (amount +
 * fees + tip + rent; a wallet that signs several legs pays them all). One read of the distinct wallets; a
 * failed read skips the check (the relay then decides, as before).
 */
async function refuseUnaffordableLegs(
  deps: BundleDeps,
  wallets: WalletRecord[],
  signed: SignedBundle,
  tipLamports: bigint,
): Promise<void> {
  const computeBudget = deps.chain.computeBudget;
  if (computeBudget === undefined) return;
  const costs = signed.legCosts;
  const balances = signed.balances ?? (await readBalances(deps, wallets));
  if (balances === null) return;
  const owed = new Map<string, bigint>();
  for (const [index, cost] of costs.entries()) {
    const wallet = wallets[index]!.publicKey; // one wallet per leg
    const budget = computeBudget(cost.computeKind);
    const need =
      (owed.get(wallet) ?? 0n) +
      lamportsNeeded({
        amountLamports: cost.spend,
        computeUnitLimit: budget.maxUnitLimit,
        computeUnitPriceMicroLamports: budget.priceMicroLamports,
        tipLamports: cost.tipped ? tipLamports : 0n,
        rentLamports: cost.rent,
      });
    owed.set(wallet, need);
    const refusal = insufficientSol(
      { wallet, balanceLamports: balances.get(wallet) ?? 0n, what: `bundle leg ${index}`, leg: index },
      need,
    );
    if (refusal !== null) throw refusal;
  }
}

/** The distinct leg wallets' lamports in one read; null when the read fails (the check is then skipped). */
async function readBalances(deps: BundleDeps, wallets: WalletRecord[]): Promise<Map<string, bigint> | null> {
  const distinct = [...new Set(wallets.map((w) => w.publicKey))];
  try {
    const read = await readAccounts(
      deps.chain,
      distinct.map((w) => new PublicKey(w)),
    );
    return new Map(distinct.map((w, i) => [w, BigInt(read[i]?.lamports ?? 0)]));
  } catch {
    return null;
  }
}
