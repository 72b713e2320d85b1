/**
 * A trade raced over several routes (race-request.ts chose them): the wallet's durable nonce (created on demand),
 * then the shared raced execution (execution/race.ts). What the trade answer adds: `landed_via`,
 * `slots_to_land`, the variants (`routes`) and the nonce account (with its rent when this trade created it).
 */
import type { RaceRoute } from "../../chain/landing/race.js";
import type { RouteStats } from "../../chain/landing/route-stats.js";
import { ensureNonce, type NonceAnswer } from "../execution/nonce.js";
import { runRacedExecution, type VariantRecord } from "../execution/race.js";
import type { Fill } from "../../chain/fills.js";
import type { ExecutionDeps, SingleExecutionInput } from "../execution/types.js";

/** The racing collaborators of the trade service (absent: ROUTES unset, no racing). */
export interface TradeRacing {
  routes: readonly RaceRoute[];
  stats: RouteStats;
  confirmTimeoutMs: number;
  confirmPollMs: number;
}

/** What a raced trade adds to the trade answer. */
export interface RaceAnswer {
  landed_via: string | null;
  slots_to_land: number | null;
  routes: VariantRecord[];
  nonce: NonceAnswer;
}

/** Runs the trade's execution as a race; `execution` is what runSingleExecution would have been given. */
export async function runRacedTrade(
  racing: TradeRacing,
  routes: readonly RaceRoute[],
  tipLamports: bigint,
  execution: SingleExecutionInput,
): Promise<{
  executionId: string;
  signature: string;
  confirmed: boolean;
  confirmationStatus: "processed" | "confirmed" | "finalized" | null;
  fill?: Fill | null;
  race: RaceAnswer;
}> {
  const deps = execution.deps as ExecutionDeps & {
    chain: ExecutionDeps["chain"] & Required<Pick<NonNullable<ExecutionDeps["chain"]>, "rpc">>;
  };
  const { nonce, answer } = await ensureNonce(deps, execution.wallet);
  const r = await runRacedExecution({
    ...execution,
    race: {
      chain: deps.chain,
      routeStats: racing.stats,
      confirmTimeoutMs: racing.confirmTimeoutMs,
      confirmPollMs: racing.confirmPollMs,
    },
    routes,
    nonce,
    tipOf: () => tipLamports,
  });
  return {
    executionId: r.executionId,
    signature: r.signature,
    confirmed: r.confirmed,
    confirmationStatus: r.confirmationStatus,
    ...(r.fill !== undefined ? { fill: r.fill } : {}),
    race: { landed_via: r.landedVia, slots_to_land: r.slotsToLand, routes: r.variants, nonce: answer },
  };
}
