/**
 * A raced build for an outside wallet (issue 32): the trade's instructions assembled once per route, each variant
 * paying that route's tip to one of its own tip accounts, all opening with the AdvanceNonceAccount of the
 * wallet's durable nonce and using its current value as their blockhash, so at most one can land. Each variant is
 * remembered as a build of its own, tagged with its route and the group they share; POST /v1/transactions/send
 * takes them back signed, together.
 */
import { randomUUID } from "node:crypto";
import { PublicKey, type TransactionInstruction } from "@solana/web3.js";
import type { Chain } from "../../chain/chain.js";
import { advanceNonceInstruction, type NonceState } from "../../chain/landing/nonce.js";
import type { RaceRoute } from "../../chain/landing/race.js";
import { assembleOutside, messageOf } from "./assemble-outside.js";
import type { SpendGuard } from "../execution/types.js";
import { selectRaceRoutes } from "../trade/race-request.js";
import type { TradeRacing } from "../trade/raced-trade.js";
import type { OutsideBuild, OutsideBuilds } from "./builds.js";

/** One unsigned variant as the build answers it. */
export interface BuiltVariant {
  route: string;
  /** The unsigned v0 transaction, base64: sign it as fee payer. */
  transaction: string;
  tip_lamports: string;
  tip_account: string | null;
}

/** What a raced build adds to the build answer (instead of `transaction`). */
export interface RacedBuildAnswer {
  variants: BuiltVariant[];
  nonce: { address: string; value: string; authority: string };
  compute_unit_limit: number;
  compute_unit_price_micro_lamports: string;
  tip_lamports: string;
}

/**
 * The routes a build races over (`routes` / `mev_protect` as on a managed trade, each paid the service's relay
 * tip), or null for a single build; refused before any chain access.
 */
export function outsideRaceRoutes(
  fields: { readonly routes?: unknown; readonly mev_protect?: unknown } | undefined,
  racing: TradeRacing | undefined,
  tipLamports: bigint,
): RaceRoute[] | null {
  return selectRaceRoutes(
    fields ?? {},
    racing === undefined
      ? undefined
      : { routes: racing.routes, demoted: (n) => racing.stats.demotion(n).demoted },
    tipLamports,
  );
}

/** What the variants share: the build's record fields, the instructions and how they are priced. */
export interface RaceBuildInput {
  chain: Pick<Chain, "assemble">;
  outsideBuilds: OutsideBuilds;
  spendGuard?: SpendGuard;
  build: Omit<
    OutsideBuild,
    "spendable" | "lastValidBlockHeight" | "computeUnitLimit" | "computeUnitPriceMicroLamports" | "race"
  >;
  instructions: TransactionInstruction[];
  feeAccounts: readonly PublicKey[];
  routes: readonly RaceRoute[];
  tipLamports: bigint;
  nonce: NonceState;
}

/** Assembles one unsigned variant per route on the nonce and remembers each (the key's cap judges each). */
export async function buildRacedVariants(input: RaceBuildInput): Promise<RacedBuildAnswer> {
  const payer = new PublicKey(input.build.publicKey);
  const advance = advanceNonceInstruction(input.nonce.address, payer);
  const group = randomUUID();
  const built = input.routes.map((route) => {
    const tip = route.tipAccounts.length === 0 ? 0n : input.tipLamports;
    const { tx, spendable } = assembleOutside(input, {
      kind: "trade",
      payer,
      instructions: input.instructions,
      tip: tip > 0n ? { accounts: [...route.tipAccounts], lamports: tip } : "none",
      feeAccounts: input.feeAccounts,
      durableNonce: { advance, value: input.nonce.value },
    });
    return { route, tip, tx, spendable };
  });
  await Promise.all(
    built.map(({ route, tip, tx, spendable }) =>
      input.outsideBuilds.remember(messageOf(tx.wire), {
        ...input.build,
        spendable,
        lastValidBlockHeight: tx.lastValidBlockHeight,
        computeUnitLimit: tx.computeUnitLimit,
        computeUnitPriceMicroLamports: tx.computeUnitPriceMicroLamports,
        race: {
          group,
          route: route.name,
          nonceAccount: input.nonce.address.toBase58(),
          nonceValue: input.nonce.value,
          tipLamports: tip.toString(),
        },
      }),
    ),
  );
  const first = built[0]!.tx;
  return {
    variants: built.map(({ route, tip, tx }) => ({
      route: route.name,
      transaction: Buffer.from(tx.wire).toString("base64"),
      tip_lamports: tip.toString(),
      tip_account: tx.tipAccount?.toBase58() ?? null,
    })),
    nonce: {
      address: input.nonce.address.toBase58(),
      value: input.nonce.value,
      authority: input.nonce.authority.toBase58(),
    },
    compute_unit_limit: first.computeUnitLimit,
    compute_unit_price_micro_lamports: first.computeUnitPriceMicroLamports.toString(),
    tip_lamports: input.tipLamports.toString(),
  };
}
