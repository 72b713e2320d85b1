/**
 * POST /v1/laser/bundle/build (issue 32): a bundle whose legs are signed by wallets the service does not hold.
 * The spec's bundle shape rules and texts (parseBundleRequest), the managed bundle's planning (create-led:
 * `planCreateLedBundle` against the fresh curve; existing token: the trade's read, quote and instructions) and
 * its tip rule (the first leg pays the bundle tip, later legs none). One unsigned transaction per leg; a create
 * leg is already signed by its fresh mint, whose secret is wiped once that leg is assembled. Every leg is
 * remembered as an outside build of the same bundle, so POST /v1/transactions/send takes them back together.
 */
import { randomUUID } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import { parseAddress, type Address } from "../../core/addresses.js";
import { ApiError } from "../../core/errors.js";
import { isPresent, type RequestBody } from "../../core/request-fields.js";
import type { Chain } from "../../chain/chain.js";
import { planCreateLedBundle } from "../bundle/legs.js";
import { bundleRequestSummary, legFillRequests, tradeIntentOf, type Tip } from "../bundle/service.js";
import { parseBundleRequest, type BundleLimits, type BundleRequest } from "../bundle/shape.js";
import { newMintKey } from "../create/mint-key.js";
import type { SpendGuard, VenueCheck } from "../execution/types.js";
import { cachedTradeConfigs, chainGeneration, createConfigs } from "../trade/configs.js";
import { quoteRead, tradeInstructions } from "../trade/plan.js";
import { readTrade } from "../trade/read.js";
import { assembleOutside, type OutsideTransaction } from "./assemble-outside.js";
import type { OutsideBuilds } from "./builds.js";
import { OUTSIDE_LEGS } from "./leg-texts.js";
import { OUTSIDE } from "./texts.js";

/** A bundle build: the spec's bundle and each leg's outside wallet, in leg order. */
export interface BundleBuildIntent {
  bundle: BundleRequest;
  wallets: Address[];
}

/**
 * Parses a bundle build body: the bundle's shape rules first (spec 4.5 texts), then each leg's outside wallet,
 * its own `wallet` or the body's `public_key` (a 400 naming the leg's `index` when neither is given).
 */
export function parseBundleBuildRequest(body: RequestBody, limits: BundleLimits): BundleBuildIntent {
  const bundle = parseBundleRequest(body, limits);
  const fallback = isPresent(body.public_key ?? body.publicKey)
    ? parseAddress(body.public_key ?? body.publicKey, OUTSIDE.publicKeyInvalid)
    : undefined;
  const wallets = bundle.legs.map((leg, index) => {
    const w = leg.wallet ?? fallback;
    if (w === undefined) throw new ApiError(400, OUTSIDE_LEGS.legWalletRequired, { index });
    return w;
  });
  return { bundle, wallets };
}

/** Collaborators of a bundle build. */
export interface BundleBuildDeps {
  chain: Pick<Chain, "rpc" | "caches" | "assemble" | "bundleTipAccounts"> &
    Partial<Pick<Chain, "programGeneration">>;
  outsideBuilds: OutsideBuilds;
  spendGuard?: SpendGuard;
  checkVenue?: VenueCheck;
  random?: () => number;
}

/** One leg of the answer. */
export interface BuiltLeg {
  index: number;
  type: "create" | "buy" | "sell";
  wallet: string;
  /** Unsigned by its wallet (a create leg carries the mint's signature), base64. */
  transaction: string;
  /** The leg's slippage bound (tokens out of a buy, lamports out of a sell); null for a create without buy. */
  expected_output: string | null;
  tip_lamports: string;
}

/** The bundle build answer. */
export interface BundleBuildResult {
  mint: string;
  bundle_tip_lamports: string;
  last_valid_block_height: number;
  legs: BuiltLeg[];
}

interface AssembledLegs {
  mint: string;
  legs: OutsideTransaction[];
  expected: (bigint | null)[];
}

// The create leg carries the tip and the mint's signature; the mint secret is wiped once it is assembled.
async function assembleCreateLed(
  deps: BundleBuildDeps,
  request: Extract<BundleRequest, { shape: "create-led" }>,
  wallets: PublicKey[],
  tip: Tip,
): Promise<AssembledLegs> {
  const config = createConfigs(deps.chain);
  const mintKey = newMintKey();
  const mint = mintKey.keypair.publicKey;
  const legs: OutsideTransaction[] = [];
  try {
    const plan = await planCreateLedBundle({
      config,
      create: request.create.create,
      buys: request.buys,
      wallets,
      mint,
      ...(deps.random !== undefined ? { random: deps.random } : {}),
    });
    for (const [i, instructions] of plan.legInstructions.entries()) {
      const first = i === 0;
      legs.push(
        assembleOutside(deps, {
          kind: first ? "create" : "trade",
          payer: wallets[i]!, // one wallet per leg (parseBundleBuildRequest)
          instructions,
          tip: first ? tip : "none",
          ...(first ? { extraSigners: [mintKey.keypair] } : {}),
        }),
      );
      if (first) mintKey.wipe();
    }
    return {
      mint: mint.toBase58(),
      legs,
      expected: [plan.create.initialBuy?.minTokensOut ?? null, ...plan.buys.map((b) => b.minTokensOut)],
    };
  } finally {
    mintKey.wipe();
  }
}

// One trade of an existing token: the trade endpoint's read, quote and builders, with the bundle tip.
async function assembleExistingTrade(
  deps: BundleBuildDeps,
  request: Extract<BundleRequest, { shape: "existing-token" }>,
  wallet: PublicKey,
  tip: Tip,
): Promise<AssembledLegs> {
  const intent = tradeIntentOf(request.mint, request.trade, request.confirm);
  const read = await readTrade(deps.chain.rpc, intent, wallet);
  deps.checkVenue?.(read.venue);
  const configs = cachedTradeConfigs(deps.chain.caches, chainGeneration(deps.chain));
  const quote = quoteRead(intent, read, configs);
  const instructions = await tradeInstructions(read, quote, configs, deps.random);
  const leg = assembleOutside(deps, { kind: "trade", payer: wallet, instructions, tip });
  return { mint: read.mint.toBase58(), legs: [leg], expected: [quote.expectedOutput] };
}

/** Builds every leg for its outside wallet and remembers them as one bundle for the send. */
export async function runBundleBuild(
  deps: BundleBuildDeps,
  apiKeyId: number,
  intent: BundleBuildIntent,
): Promise<BundleBuildResult> {
  const { bundle, wallets } = intent;
  await deps.spendGuard?.beforeSign();
  const tip: Tip = { accounts: await deps.chain.bundleTipAccounts(), lamports: bundle.tipLamports };
  const keys = wallets.map((w) => new PublicKey(w));
  const built =
    bundle.shape === "create-led"
      ? await assembleCreateLed(deps, bundle, keys, tip)
      : await assembleExistingTrade(deps, bundle, keys[0]!, tip);
  const { mint } = built;
  const id = randomUUID();
  const count = built.legs.length;
  const fills = legFillRequests(
    bundle,
    wallets.map((wallet) => ({ wallet })),
    mint,
    tip,
  );
  const request = {
    ...bundleRequestSummary(
      bundle,
      wallets.map((publicKey) => ({ publicKey })),
      mint,
    ),
    outside: true,
  };
  await Promise.all(
    built.legs.map((leg, index) => {
      const type = bundle.legs[index]!.type;
      return deps.outsideBuilds.remember(leg.message, {
        apiKeyId,
        publicKey: wallets[index]!,
        mint,
        action: type === "sell" ? "sell" : "buy",
        kind: "bundle",
        fill: fills[index] ?? null,
        bundle: { id, index, count, type },
        request,
        details: { mint },
        spendable: leg.spendable,
        lastValidBlockHeight: leg.tx.lastValidBlockHeight,
        computeUnitLimit: leg.tx.computeUnitLimit,
        computeUnitPriceMicroLamports: leg.tx.computeUnitPriceMicroLamports,
      });
    }),
  );
  return {
    mint,
    bundle_tip_lamports: bundle.tipLamports.toString(),
    last_valid_block_height: Math.min(...built.legs.map((l) => l.tx.lastValidBlockHeight)),
    legs: built.legs.map((leg, index) => ({
      index,
      type: bundle.legs[index]!.type,
      wallet: wallets[index]!,
      transaction: Buffer.from(leg.tx.wire).toString("base64"),
      expected_output: built.expected[index]?.toString() ?? null,
      tip_lamports: (index === 0 ? bundle.tipLamports : 0n).toString(),
    })),
  };
}
