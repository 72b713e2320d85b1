/**
 * A raced outside send (issue 32): the signed variants of one raced build, taken back together, checked (each
 * the message built for this key and signed by its wallet, one per route, all of one build, the nonce still at
 * the value they use), recorded as one trade execution and raced each over its own route by the managed racing
 * code (execution/race.ts): every variant's route, signature, send time and answer, `landed_via`,
 * `slots_to_land`, the fill of the one that landed. A nonce closed or advanced since the build is a 409.
 */
import { PublicKey } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import type { RaceRoute, RaceVariant } from "../../chain/landing/race.js";
import { ApiError, badRequest, SPEC } from "../../core/errors.js";
import { raceSignedVariants, type VariantRecord } from "../execution/race.js";
import { noSpend } from "../execution/worst-case-spend.js";
import { RACE_RULES } from "../trade/race-request.js";
import type { TradeRacing } from "../trade/raced-trade.js";
import type { OutsideBuild } from "./builds.js";
import { readNonceAccount } from "./nonce-account.js";
import { OUTSIDE_NONCE } from "./nonce-texts.js";
import { runSend, type SendDeps, type SendIntent, type SendResult } from "./send.js";
import { readSignedTransaction, type SignedTransaction } from "./signed-transaction.js";
import { OUTSIDE } from "./texts.js";

/** Collaborators of a raced send: a send's, the chain's RPC and the configured routes. */
export interface RacedSendDeps extends SendDeps {
  chain: SendDeps["chain"] & Pick<Chain, "rpc">;
  racing?: TradeRacing;
}

/** The raced send answer: a send's, plus the race. */
export interface RacedSendResult extends SendResult {
  landed_via: string | null;
  slots_to_land: number | null;
  routes: VariantRecord[];
  nonce_account: string;
}

type RacedBuild = OutsideBuild & { race: NonNullable<OutsideBuild["race"]> };

/** The builds of `signed` (peeked, or taken when `take`), refused with a 400 unless they form one raced build. */
async function variantBuilds(
  deps: RacedSendDeps,
  apiKeyId: number,
  signed: readonly SignedTransaction[],
  take: boolean,
): Promise<RacedBuild[]> {
  const builds = await Promise.all(signed.map((s) => deps.outsideBuilds.take(apiKeyId, s.message, !take)));
  const out: RacedBuild[] = [];
  builds.forEach((b, i) => {
    if (b === undefined || b.publicKey !== signed[i]!.feePayer) throw badRequest(OUTSIDE.notBuilt);
    if (b.race === undefined) throw badRequest(OUTSIDE_NONCE.variantsMixed);
    out.push(b as RacedBuild);
  });
  const first = out[0]!.race;
  const routes = new Set(out.map((b) => b.race.route));
  if (routes.size !== out.length || out.some((b) => b.race.group !== first.group))
    throw badRequest(OUTSIDE_NONCE.variantsMixed);
  return out;
}

/** Checks, records and races the signed variants of one raced build for the key. */
export async function runRacedSend(
  deps: RacedSendDeps,
  apiKeyId: number,
  intent: SendIntent & { transactions: readonly string[] },
): Promise<RacedSendResult | SendResult> {
  // A dry run describes the first variant as a single send (nothing is sent, the builds stay).
  if (deps.dryRun !== undefined) return runSend(deps, apiKeyId, intent);
  const racing = deps.racing;
  if (racing === undefined || racing.routes.length === 0) throw badRequest(RACE_RULES.noRoutes);
  const signed = intent.transactions.map(readSignedTransaction);
  const peeked = await variantBuilds(deps, apiKeyId, signed, false);
  const tag = peeked[0]!.race;
  const wallet = peeked[0]!.publicKey;
  const routes: RaceRoute[] = peeked.map((b) => {
    const route = racing.routes.find((r) => r.name === b.race.route);
    if (route === undefined) throw badRequest(OUTSIDE_NONCE.routeGone, { route: b.race.route });
    return route;
  });
  // The nonce as it is now: closed, handed to another authority or advanced since the build, nothing can land.
  const nonceKey = new PublicKey(tag.nonceAccount);
  const nonce = await readNonceAccount(deps.chain.rpc, nonceKey);
  const where = { nonce_account: tag.nonceAccount };
  if (nonce === null) throw new ApiError(409, OUTSIDE_NONCE.nonceMissing, where);
  if (nonce.authority.toBase58() !== wallet)
    throw new ApiError(409, OUTSIDE_NONCE.otherAuthority, {
      ...where,
      authority: nonce.authority.toBase58(),
    });
  if (nonce.value !== tag.nonceValue)
    throw new ApiError(409, OUTSIDE_NONCE.nonceAdvanced, {
      ...where,
      built_on: tag.nonceValue,
      nonce_value: nonce.value,
    });
  // Taken once: a second send of any of them finds nothing.
  const builds = await variantBuilds(deps, apiKeyId, signed, true);
  const guard = deps.spendGuard;
  if (guard !== undefined) {
    await guard.beforeSign();
    // The variant with the highest tip is the worst that can land; the others are alternatives to it.
    const tips = builds.map((b) => BigInt(b.race.tipLamports));
    const worst = tips.reduce((m, t, i) => (t > tips[m]! ? i : m), 0);
    const spend = guard.inspect?.(builds[worst]!.spendable);
    if (spend !== undefined)
      signed.forEach((s, i) => guard.signed(s.signature, i === worst ? spend : noSpend()));
  }
  const variants: RaceVariant[] = builds.map((b, i) => ({
    route: b.race.route,
    signature: signed[i]!.signature,
    wire: signed[i]!.wire,
    tipAccount: null,
    tipLamports: BigInt(b.race.tipLamports),
  }));
  const first = builds[0]!;
  const r = await raceSignedVariants({
    deps,
    race: {
      chain: deps.chain,
      routeStats: racing.stats,
      confirmTimeoutMs: racing.confirmTimeoutMs,
      confirmPollMs: racing.confirmPollMs,
    },
    apiKeyId,
    kind: "trade",
    wallet,
    request: {
      ...first.request,
      simulate: intent.simulate,
      confirm: intent.confirm,
      routes: variants.map((v) => v.route),
    },
    simulate: intent.simulate,
    confirm: intent.confirm,
    simulationFailedDetail: SPEC.trade.simulationFailed,
    details: first.details,
    fill: { wallet, mint: first.mint, side: first.action },
    routes,
    nonce: { address: nonceKey },
    variants,
    txs: builds.map((b, i) => ({
      signature: signed[i]!.signature,
      wire: signed[i]!.wire,
      lastValidBlockHeight: b.lastValidBlockHeight,
      computeUnitPriceMicroLamports: b.computeUnitPriceMicroLamports,
    })),
  });
  return {
    ...first.details,
    execution_id: r.executionId,
    signature: r.signature,
    wallet,
    action: first.action,
    mint: first.mint,
    confirmed: r.confirmed,
    confirmation_status: intent.confirm ? r.confirmationStatus : null,
    landed_via: r.landedVia,
    slots_to_land: r.slotsToLand,
    routes: r.variants,
    nonce_account: tag.nonceAccount,
    ...(r.fill !== undefined ? { fill: r.fill } : {}),
  };
}
