/**
 * A raced execution: the transaction built once, signed as one variant per route (each tipping its own route),
 * all advancing the wallet's durable nonce, so at most one lands; recorded pending with every variant's
 * signature before anything is sent; sent to every route at once; confirmed by watching every signature. The
 * record keeps each variant's route, signature, send time and answer, and the route that landed it with the
 * slots from send to land. Without `confirm` the answer carries the first accepted variant's signature and
 * no winner yet.
 */
import type { Chain, ChainTransaction } from "../../chain/chain.js";
import { ChainError } from "../../chain/chain-error.js";
import { advanceNonceInstruction, type NonceState } from "../../chain/landing/nonce.js";
import {
  landedVariant,
  sendVariants,
  type RaceRoute,
  type RaceVariant,
  type VariantSend,
} from "../../chain/landing/race.js";
import type { RouteStats } from "../../chain/landing/route-stats.js";
import { ApiError, EXECUTION } from "../../core/errors.js";
import { TransactionTooLargeError } from "../../chain/tx-assembly.js";
import { simulateOrRefuse } from "../../chain/submit.js";
import { answerOf, failureOutcome } from "./failure.js";
import { readFill } from "./fill.js";
import type { Fill } from "../../chain/fills.js";
import { recordOutcome, recordPending } from "./records.js";
import { noSpend, type WorstCaseSpend } from "./worst-case-spend.js";
import type { ExecutionDeps, SingleExecutionInput, TransactionBuilder } from "./types.js";

/** What a race needs beyond the pipeline's collaborators. */
export interface RaceDeps {
  chain: Pick<Chain, "assemble" | "rpc">;
  routeStats: RouteStats;
  /** Wall-clock milliseconds for the variants' send times (default Date.now). */
  wallClock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  confirmTimeoutMs: number;
  confirmPollMs: number;
}

/**
 * Inputs of a raced execution (a single execution's): `simulate` simulates the first route's variant before any
 * is sent (the variants differ only in their tip), `fill` is read from the variant that landed.
 */
export interface RacedExecutionInput extends SingleExecutionInput {
  race: RaceDeps;
  routes: readonly RaceRoute[];
  nonce: NonceState;
  /** The tip a variant pays on `route` (at least its minimum, within the key's policy). */
  tipOf: (route: RaceRoute) => bigint;
}

/** A raced execution's outcome. */
export interface RacedExecutionResult {
  executionId: string;
  /** The landed variant's signature, or (not landed, or not confirmed) the first accepted one's. */
  signature: string;
  confirmed: boolean;
  confirmationStatus: "processed" | "confirmed" | "finalized" | null;
  landedVia: string | null;
  slotsToLand: number | null;
  variants: VariantRecord[];
  /** What moved, when `fill` was asked and a variant landed; null if it could not be read. */
  fill?: Fill | null;
}

/** One variant as the record and the answer show it. */
export interface VariantRecord {
  route: string;
  signature: string;
  tip_lamports: string;
  sent_at: string;
  answered_ms: number;
  accepted: boolean;
  error?: string;
}

function variantRecord(s: VariantSend): VariantRecord {
  return {
    route: s.route,
    signature: s.signature,
    tip_lamports: s.tipLamports.toString(),
    sent_at: new Date(s.sentAtMs).toISOString(),
    answered_ms: Math.max(0, Math.round(s.answeredAtMs - s.sentAtMs)),
    accepted: s.accepted,
    ...(s.error !== undefined ? { error: s.error } : {}),
  };
}

/**
 * Signs one variant per route in one decryption of the wallet's key. The key's spend guard judges the variant
 * with the highest tip (the worst that can land); the others are alternatives to it (one nonce: at most one
 * lands), so they reserve nothing more.
 */
async function signVariants(
  deps: ExecutionDeps,
  input: RacedExecutionInput,
  build: TransactionBuilder,
): Promise<{ variants: RaceVariant[]; txs: ChainTransaction[] }> {
  const guard = deps.spendGuard;
  if (guard !== undefined) await guard.beforeSign();
  const tips = input.routes.map((r) => (r.tipAccounts.length === 0 ? 0n : input.tipOf(r)));
  const worst = tips.reduce((m, t, i) => (t > tips[m]! ? i : m), 0);
  return deps.vault.withKeypair(input.wallet, async (payer) => {
    const built = await build(payer);
    const advance = advanceNonceInstruction(input.nonce.address, payer.publicKey);
    const txs: ChainTransaction[] = [];
    let spend: WorstCaseSpend | undefined;
    try {
      input.routes.forEach((route, i) => {
        const tip = tips[i]!;
        const inspect = i === worst ? guard?.inspect : undefined;
        txs.push(
          input.race.chain.assemble({
            kind: built.computeKind,
            payer,
            instructions: built.instructions,
            tip: tip > 0n ? { accounts: [...route.tipAccounts], lamports: tip } : "none",
            ...(built.feeAccounts !== undefined ? { feeAccounts: built.feeAccounts } : {}),
            durableNonce: { advance, value: input.nonce.value },
            ...(inspect !== undefined ? { inspect: (t) => void (spend = inspect(t)) } : {}),
          }),
        );
      });
    } catch (e) {
      if (e instanceof TransactionTooLargeError) {
        throw new ApiError(400, EXECUTION.transactionTooLargePrefix + e.message);
      }
      throw e;
    }
    if (guard !== undefined && spend !== undefined) {
      txs.forEach((tx, i) => guard.signed(tx.signature, i === worst ? spend! : noSpend()));
    }
    const variants = txs.map((tx, i) => ({
      route: input.routes[i]!.name,
      signature: tx.signature,
      wire: tx.wire,
      tipAccount: tx.tipAccount?.toBase58() ?? null,
      tipLamports: tips[i]!,
    }));
    return { variants, txs };
  });
}

/** Polls every variant's signature until one is seen at `confirmed` (or better) or the deadline passes. */
async function watchLanding(
  race: RaceDeps,
  variants: readonly RaceVariant[],
): Promise<{ route: string; signature: string; slot: number; status: string | null; err: unknown } | null> {
  const sleep = race.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const deadline = Date.now() + race.confirmTimeoutMs;
  for (;;) {
    const { value } = await race.chain.rpc.getSignatureStatuses(variants.map((v) => v.signature));
    const { landing } = landedVariant(variants, value);
    if (landing !== null) {
      const status = value[variants.findIndex((v) => v.signature === landing.signature)];
      const level = status?.confirmationStatus ?? null;
      if (landing.err !== null || level === "confirmed" || level === "finalized")
        return { ...landing, status: level };
    }
    if (Date.now() >= deadline) return null;
    await sleep(race.confirmPollMs);
  }
}

/** Runs one raced execution (see the file comment); errors are recorded, then thrown. */
export async function runRacedExecution(input: RacedExecutionInput): Promise<RacedExecutionResult> {
  const { variants, txs } = await signVariants(input.deps, input, input.build);
  return raceSignedVariants({ ...input, wallet: input.wallet.publicKey, variants, txs });
}

/**
 * A race of variants already signed (by the wallet's key in one pass, or by an outside wallet that signed the
 * variants the service built for it), the key's spend guard told of their signatures: record, send, watch.
 */
export interface SignedRaceInput {
  deps: Pick<ExecutionDeps, "store" | "dryRun" | "spendGuard" | "onRecordError">;
  race: RaceDeps;
  apiKeyId: number;
  kind: SingleExecutionInput["kind"];
  /** The paying wallet's public key. */
  wallet: string;
  request: unknown;
  simulate: boolean;
  confirm: boolean;
  simulationFailedDetail: string;
  details?: Record<string, unknown>;
  fill?: SingleExecutionInput["fill"];
  routes: readonly RaceRoute[];
  nonce: Pick<NonceState, "address">;
  /** One per route, in the order of `txs`. */
  variants: readonly RaceVariant[];
  txs: readonly Pick<
    ChainTransaction,
    "signature" | "wire" | "lastValidBlockHeight" | "computeUnitPriceMicroLamports"
  >[];
}

/** Records the variants pending, simulates the first if asked, sends each to its route and watches them land. */
export async function raceSignedVariants(input: SignedRaceInput): Promise<RacedExecutionResult> {
  const { deps, race, variants, txs } = input;
  const wallClock = race.wallClock ?? Date.now;
  const executionId = await recordPending(
    deps.store,
    {
      apiKeyId: input.apiKeyId,
      kind: input.kind,
      wallet: input.wallet,
      signatures: variants.map((v) => v.signature),
      request: input.request,
      lastValidBlockHeight: txs[0]!.lastValidBlockHeight,
      computeUnitPriceMicroLamports: txs[0]!.computeUnitPriceMicroLamports,
    },
    deps.dryRun,
    // The record-time policy step (issue 30) decides the reservation the insert makes, as on a single send.
    deps.spendGuard,
  );
  if (input.simulate) await simulateFirst(input, executionId, txs[0]!);
  // The slot at the send, read beside the sends (not before them): slots to land count from it.
  const [sends, sentSlot] = await Promise.all([
    sendVariants(variants, input.routes, wallClock),
    race.chain.rpc.getSlot().catch(() => null),
  ]);
  const records = sends.map(variantRecord);
  const accepted = sends.find((s) => s.accepted);
  if (accepted === undefined) {
    for (const s of sends)
      race.routeStats.record({
        route: s.route,
        atMs: s.sentAtMs,
        accepted: false,
        landed: false,
        ...(s.error !== undefined ? { error: s.error } : {}),
        tipLamports: s.tipLamports,
      });
    const e = new ChainError("relay_refused", "every route refused the transaction", {
      routes: records,
      execution_id: executionId,
    });
    await recordOutcome(deps.store, executionId, failureOutcome(e)).catch(
      deps.onRecordError ?? (() => undefined),
    );
    throw e;
  }
  let landing: Awaited<ReturnType<typeof watchLanding>> = null;
  if (input.confirm) landing = await watchLanding(race, variants);
  const slotsToLand = landing !== null && sentSlot !== null ? Math.max(0, landing.slot - sentSlot) : null;
  for (const s of sends) {
    const won = landing?.signature === s.signature;
    race.routeStats.record({
      route: s.route,
      atMs: s.sentAtMs,
      accepted: s.accepted,
      landed: won,
      ...(won && slotsToLand !== null ? { slotsToLand } : {}),
      ...(s.error !== undefined ? { error: s.error } : {}),
      tipLamports: s.tipLamports,
    });
  }
  if (input.confirm && landing === null)
    for (const s of sends) if (s.accepted) race.routeStats.notLanded(s.route);
  const signature = landing?.signature ?? accepted.signature;
  const confirmed = landing !== null && landing.err === null;
  const fill =
    landing !== null && confirmed && input.fill !== undefined ? await landedFill(input, landing) : undefined;
  const confirmationStatus = (landing?.status ?? null) as RacedExecutionResult["confirmationStatus"];
  const response = {
    ...input.details,
    signature,
    confirmed,
    confirmation_status: confirmationStatus,
    landed_via: landing?.route ?? null,
    slots_to_land: slotsToLand,
    nonce_account: input.nonce.address.toBase58(),
    variants: records,
    ...(fill !== undefined ? { fill } : {}),
  };
  await recordOutcome(deps.store, executionId, {
    status: !input.confirm
      ? "submitted"
      : landing === null
        ? "timeout"
        : landing.err !== null
          ? "failed"
          : "confirmed",
    confirmationStatus,
    response,
  }).catch(deps.onRecordError ?? (() => undefined));
  if (landing !== null && landing.err !== null) {
    throw new ChainError("landed_with_error", "transaction failed on chain", {
      signature,
      execution_id: executionId,
      landed_via: landing.route,
    });
  }
  return {
    executionId,
    signature,
    confirmed,
    confirmationStatus,
    landedVia: landing?.route ?? null,
    slotsToLand,
    variants: records,
    ...(fill !== undefined ? { fill } : {}),
  };
}

/**
 * Simulates the first route's variant (as a single execution simulates its transaction, with the same texts);
 * a refusal is recorded as failed (nothing was sent) and thrown naming the execution.
 */
async function simulateFirst(
  input: SignedRaceInput,
  executionId: string,
  first: Pick<ChainTransaction, "wire" | "signature">,
): Promise<void> {
  try {
    await simulateOrRefuse(input.race.chain.rpc, first.wire, first.signature, input.simulationFailedDetail);
  } catch (e) {
    await recordOutcome(input.deps.store, executionId, failureOutcome(e)).catch(
      input.deps.onRecordError ?? (() => undefined),
    );
    const answer = answerOf(e);
    if (answer !== undefined) Object.assign(answer.extra, { execution_id: executionId });
    throw e;
  }
}

/** The fill of the variant that landed, its route's tip accounts counted as the tip. */
async function landedFill(
  input: SignedRaceInput,
  landing: { route: string; signature: string },
): Promise<Fill | null> {
  const route = input.routes.find((r) => r.name === landing.route);
  const tipAccounts = route?.tipAccounts.map((a) => a.toBase58()) ?? [];
  return readFill(input.race.chain, landing.signature, { ...input.fill!, tipAccounts });
}
