/**
 * Sending what outside wallets signed for a create or a bundle (issue 32). POST /v1/transactions/send takes
 * `transaction` (one trade or create, send.ts) or `transactions`: every leg of one bundle built by
 * POST /v1/laser/bundle/build, in leg order, each signed by its leg's wallet. The legs are checked like a single
 * send (exact built bytes for this key, every signature verified), taken together, recorded as ONE bundle
 * execution of the key with every leg's wallet and signature, and submitted through the bundle relay with the
 * managed bundle's pipeline (outcome, per-leg fills for the positions ledger).
 */
import type { ChainTransaction } from "../../chain/chain.js";
import { badRequest } from "../../core/errors.js";
import type { RequestBody } from "../../core/request-fields.js";
import { bundleIdOf } from "../bundle/service.js";
import { submitBundleRecorded } from "../execution/pipeline.js";
import { recordPending } from "../execution/records.js";
import type { OutsideBuild } from "./builds.js";
import { OUTSIDE_LEGS } from "./leg-texts.js";
import { refuseUnscopedLegs } from "./leg-scope.js";
import { parseSendRequest, runSend, type SendDeps, type SendIntent, type SendResult } from "./send.js";
import { runRacedSend, type RacedSendDeps } from "./raced-send.js";
import { readSignedTransaction } from "./signed-transaction.js";
import { OUTSIDE } from "./texts.js";

/** A bundle has at most 4 legs (the spec's bundle limit). */
const MAX_LEGS = 4;

/** A send body: one signed transaction, a raced build's variants or a bundle's legs (send.ts parses all three). */
export type SendAnyIntent = SendIntent;

/** Parses a send body: `transaction`, or `transactions` (send.ts); never both. */
export const parseSendAnyRequest = (body: RequestBody): SendAnyIntent => parseSendRequest(body);

/** One bundle leg of the send answer. */
export interface SentLeg {
  index: number;
  type: "create" | "buy" | "sell";
  wallet: string;
  signature: string;
}

/** The send of a bundle's legs, or of one transaction (send.ts). */
export async function runSendAny(
  deps: RacedSendDeps,
  apiKeyId: number,
  intent: SendAnyIntent,
): Promise<SendResult> {
  const many = intent.transactions;
  if (many === undefined) return runSend(deps, apiKeyId, intent);
  const signed = many.map(readSignedTransaction);
  // Variants of a raced build race over their routes; anything else sent together must be one bundle's legs.
  const head = await deps.outsideBuilds.take(apiKeyId, signed[0]!.message, true);
  if (head?.race !== undefined) return runRacedSend(deps, apiKeyId, { ...intent, transactions: many });
  if (signed.length > MAX_LEGS) throw badRequest(OUTSIDE_LEGS.bundleIncomplete);
  // Peeked first: a set that is not one whole bundle in order is refused without spending its builds.
  const builds = await legBuilds(deps, apiKeyId, signed, true);
  refuseUnscopedLegs(deps, builds, true);
  // Then taken (a dry run leaves them): of two sends of the same legs, one takes them all.
  if (deps.dryRun === undefined) await legBuilds(deps, apiKeyId, signed, false);
  const guard = deps.spendGuard;
  if (guard !== undefined) {
    await guard.beforeSign();
    for (const [i, b] of builds.entries()) {
      const spend = guard.inspect?.(b.spendable);
      if (spend !== undefined) guard.signed(signed[i]!.signature, spend);
    }
  }
  const first = builds[0]!; // one build per leg, at least one leg
  const mint = first.mint;
  const results: SentLeg[] = builds.map((b, index) => ({
    index,
    type: b.bundle!.type, // every leg is a bundle leg (legBuilds)
    wallet: b.publicKey,
    signature: signed[index]!.signature,
  }));
  const signatures = results.map((r) => r.signature);
  const executionId = await recordPending(
    deps.store,
    {
      apiKeyId,
      kind: "bundle",
      wallet: first.publicKey,
      wallets: [...new Set(builds.map((b) => b.publicKey))],
      signatures,
      bundleId: bundleIdOf(signatures),
      request: { ...first.request, confirm: intent.confirm },
      lastValidBlockHeight: Math.min(...builds.map((b) => b.lastValidBlockHeight)),
      computeUnitPriceMicroLamports: builds
        .map((b) => b.computeUnitPriceMicroLamports)
        .reduce((a, b) => (b > a ? b : a), 0n),
    },
    deps.dryRun,
    guard,
  );
  const txs: ChainTransaction[] = builds.map((b, i) => ({
    signature: signed[i]!.signature,
    wire: signed[i]!.wire,
    computeUnitLimit: b.computeUnitLimit,
    computeUnitPriceMicroLamports: b.computeUnitPriceMicroLamports,
    tipAccount: null,
    lastValidBlockHeight: b.lastValidBlockHeight,
  }));
  const result = await submitBundleRecorded(
    deps,
    executionId,
    txs,
    { confirm: intent.confirm },
    { mint, results },
    builds.map((b) => b.fill ?? null),
  );
  return {
    execution_id: executionId,
    kind: "bundle",
    bundle_id: result.bundleId,
    results,
    signature: signatures[0]!,
    wallet: first.publicKey,
    mint,
    confirmed: result.confirmed,
    confirmation_status: result.confirmationStatus,
  };
}

/**
 * The builds of a bundle's signed legs, peeked or taken: each leg's message built for this key with its fee
 * payer, all of one bundle, every leg present in its order; else the 400 saying what is wrong.
 */
async function legBuilds(
  deps: Pick<SendDeps, "outsideBuilds">,
  apiKeyId: number,
  signed: readonly ReturnType<typeof readSignedTransaction>[],
  peek: boolean,
): Promise<OutsideBuild[]> {
  const builds = await Promise.all(signed.map((s) => deps.outsideBuilds.take(apiKeyId, s.message, peek)));
  return builds.map((b, i) => {
    if (b === undefined || b.publicKey !== signed[i]!.feePayer) throw badRequest(OUTSIDE.notBuilt);
    const leg = b.bundle;
    const id = builds[0]?.bundle?.id;
    if (leg === undefined || leg.id !== id || leg.index !== i || leg.count !== signed.length)
      throw badRequest(OUTSIDE_LEGS.bundleIncomplete);
    return b;
  });
}
