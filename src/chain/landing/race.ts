/**
 * Racing one trade over several routes without a double fill: one variant per route, each paying that route's
 * tip to one of its own tip accounts, all advancing the same durable nonce (their first instruction), signed in
 * one pass before any is sent. Whichever variant lands first advances the nonce; every other one is then
 * invalid (its blockhash, the old nonce value, no longer matches), so at most one lands.
 */
import type { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { AddressLookupTableAccount } from "@solana/web3.js";
import { assembleTransaction } from "../tx-assembly.js";
import type { RelayClient } from "../relay-client.js";
import { relayErrorReason, type RelayErrorReason } from "../relay-fanout.js";
import type { SignatureStatus } from "../rpc-client.js";
import { advanceNonceInstruction, type NonceState } from "./nonce.js";

/** One sender a trade can race over. */
export interface RaceRoute {
  /** The route's name (a preset or configured name), used in records, answers and metrics. */
  name: string;
  client: RelayClient;
  /** The route's own tip accounts (empty: it needs no tip, e.g. plain RPC). */
  tipAccounts: readonly PublicKey[];
  minTipLamports: bigint;
  /** Whether the route keeps the transaction from sandwiching (private to the block producer). */
  mevProtect: boolean;
}

/** One signed variant of a raced trade. */
export interface RaceVariant {
  route: string;
  signature: string;
  wire: Uint8Array;
  tipAccount: string | null;
  tipLamports: bigint;
}

/** What the variants share: the payer, the operation's instructions and its fee settings. */
export interface RaceInput {
  payer: Keypair;
  instructions: TransactionInstruction[];
  computeUnitLimit: number;
  computeUnitPriceMicroLamports: bigint;
  nonce: NonceState;
  routes: readonly RaceRoute[];
  /** The tip paid on each route (at least its minimum; the caller applies the key's policy). */
  tipLamports: (route: RaceRoute) => bigint;
  lookupTables?: AddressLookupTableAccount[];
  /** Distinct per variant, so two routes sharing tip accounts still get different signatures. */
  uniqueOffset: () => number;
  random?: () => number;
}

/** Builds and signs every variant (one per route) before any is sent. */
export function buildRaceVariants(input: RaceInput): RaceVariant[] {
  const advance = advanceNonceInstruction(input.nonce.address, input.payer.publicKey);
  return input.routes.map((route) => {
    const tipLamports = route.tipAccounts.length === 0 ? 0n : input.tipLamports(route);
    const tx = assembleTransaction({
      payer: input.payer,
      firstInstruction: advance,
      instructions: input.instructions,
      computeUnitLimit: input.computeUnitLimit,
      computeUnitPriceMicroLamports: input.computeUnitPriceMicroLamports,
      ...(tipLamports > 0n ? { tip: { accounts: [...route.tipAccounts], lamports: tipLamports } } : {}),
      blockhash: input.nonce.value,
      ...(input.lookupTables !== undefined ? { lookupTables: input.lookupTables } : {}),
      uniqueOffset: input.uniqueOffset(),
      ...(input.random !== undefined ? { random: input.random } : {}),
    });
    return {
      route: route.name,
      signature: tx.signature,
      wire: tx.wire,
      tipAccount: tx.tipAccount?.toBase58() ?? null,
      tipLamports,
    };
  });
}

/** One variant's send: when it left, when the route answered, and what it answered. */
export interface VariantSend {
  route: string;
  signature: string;
  tipLamports: bigint;
  /** Milliseconds (the caller's clock) at the send and at the answer. */
  sentAtMs: number;
  answeredAtMs: number;
  accepted: boolean;
  /** Why the route refused or failed (absent when accepted). */
  error?: RelayErrorReason;
  detail?: string;
}

/** Sends every variant to its route at once; resolves when every route answered (never rejects). */
export async function sendVariants(
  variants: readonly RaceVariant[],
  routes: readonly RaceRoute[],
  now: () => number = Date.now,
): Promise<VariantSend[]> {
  const byName = new Map(routes.map((r) => [r.name, r]));
  return Promise.all(
    variants.map(async (v): Promise<VariantSend> => {
      const route = byName.get(v.route);
      const sentAtMs = now();
      const base = { route: v.route, signature: v.signature, tipLamports: v.tipLamports, sentAtMs };
      if (route === undefined) {
        return {
          ...base,
          answeredAtMs: sentAtMs,
          accepted: false,
          error: "transport",
          detail: "no such route",
        };
      }
      try {
        await route.client.sendTransaction(v.wire);
        return { ...base, answeredAtMs: now(), accepted: true };
      } catch (e) {
        return {
          ...base,
          answeredAtMs: now(),
          accepted: false,
          error: relayErrorReason(e),
          detail: (e as Error).message,
        };
      }
    }),
  );
}

/** The variant that landed: its route, signature, slot and whether it failed on chain. */
export interface RaceLanding {
  route: string;
  signature: string;
  slot: number;
  err: unknown;
}

/**
 * Which of the variants landed, from one getSignatureStatuses answer (same order as `variants`): the first
 * found. More than one found would be a double fill (the nonce rules it out); it is reported, never hidden.
 */
export function landedVariant(
  variants: readonly Pick<RaceVariant, "route" | "signature">[],
  statuses: readonly (SignatureStatus | null)[],
): { landing: RaceLanding | null; found: number } {
  let landing: RaceLanding | null = null;
  let found = 0;
  variants.forEach((v, i) => {
    const s = statuses[i];
    if (s === null || s === undefined) return;
    found++;
    if (landing === null || s.slot < landing.slot)
      landing = { route: v.route, signature: v.signature, slot: s.slot, err: s.err };
  });
  return { landing, found };
}
