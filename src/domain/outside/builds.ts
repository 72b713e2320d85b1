/**
 * The transactions built for outside wallets (issue 32), kept in the database until their blockhash expires so
 * that a send, on any process of the deployment, can check it carries exactly the message built for its key.
 * A send takes its build once (a conditional update in the store).
 */
import { hash } from "node:crypto";
import { PublicKey, TransactionInstruction } from "@solana/web3.js";
import type { OutsideBuildStore } from "../../store/index.js";
import type { SpendableTransaction } from "../execution/worst-case-spend.js";
import type { FillRequest } from "../execution/fill.js";

/** What a send needs of its build: the record's fields and the worst case the key's caps judge. */
export interface OutsideBuild {
  apiKeyId: number;
  publicKey: string;
  mint: string;
  action: "buy" | "sell";
  /** The request summary stored on the execution record. */
  request: Record<string, unknown>;
  /** Stored as the record's response (venue, pool, amount, bounds, instruction). */
  details: Record<string, unknown>;
  spendable: SpendableTransaction;
  lastValidBlockHeight: number;
  computeUnitLimit: number;
  computeUnitPriceMicroLamports: bigint;
  /** A variant of a raced build (one per route, all on one durable nonce value); absent on a single build. */
  race?: OutsideRaceTag;
  /** What the send records (absent: a trade); a bundle's legs are sent together (build-legs.ts). */
  kind?: "create" | "bundle";
  /** Whose fill the send reads (absent: the trade's wallet, mint and side; null: none, a create without buy). */
  fill?: FillRequest | null;
  /** A bundle leg's place: the legs of one build share `id`, and a send must carry all `count` in order. */
  bundle?: { id: string; index: number; count: number; type: "create" | "buy" | "sell" };
}

/** What ties a raced build's variants together, and which route a variant is for. */
export interface OutsideRaceTag {
  /** Shared by the variants of one raced build. */
  group: string;
  route: string;
  nonceAccount: string;
  /** The nonce value the variants use as their blockhash (the value they advance). */
  nonceValue: string;
  tipLamports: string;
}

/** The builds of the deployment. */
export interface OutsideBuilds {
  remember(message: Uint8Array, build: OutsideBuild): Promise<void>;
  /**
   * The build of `message` by `apiKeyId`, taken once (a second send of it finds nothing); `peek` leaves it
   * sendable (a dry run).
   */
  take(apiKeyId: number, message: Uint8Array, peek?: boolean): Promise<OutsideBuild | undefined>;
}

/** How long a build is kept: a recent blockhash's lifetime (150 blocks) with room. */
export const BUILD_TTL_MS = 120_000;
/** How often a process deletes expired builds (at most). */
export const BUILD_SWEEP_MS = 10_000;

// One-shot hash (no Hash object per build).
const hashOf = (message: Uint8Array): string => hash("sha256", message, "base64");

interface StoredInstruction {
  p: string;
  k: [string, number][];
  d: string;
}

interface Stored extends Omit<OutsideBuild, "spendable" | "computeUnitPriceMicroLamports"> {
  computeUnitPriceMicroLamports: string;
  instructions: StoredInstruction[];
  signatureCount: number;
  tipAccounts?: string[];
}

/** The build as JSON text (bigints as decimal text, instructions as base58 keys and base64 data). */
export function encodeBuild(b: OutsideBuild): string {
  const { spendable, computeUnitPriceMicroLamports, ...rest } = b;
  const stored: Stored = {
    ...rest,
    computeUnitPriceMicroLamports: computeUnitPriceMicroLamports.toString(),
    instructions: spendable.instructions.map((i) => ({
      p: i.programId.toBase58(),
      // Bit 1: signer, bit 2: writable.
      k: i.keys.map((k) => [k.pubkey.toBase58(), (k.isSigner ? 1 : 0) | (k.isWritable ? 2 : 0)]),
      d: i.data.toString("base64"),
    })),
    signatureCount: spendable.signatureCount,
    ...(spendable.tipAccounts !== undefined
      ? { tipAccounts: spendable.tipAccounts.map((t) => t.toBase58()) }
      : {}),
  };
  return JSON.stringify(stored);
}

/** The inverse of `encodeBuild`. */
export function decodeBuild(text: string): OutsideBuild {
  const { instructions, signatureCount, tipAccounts, computeUnitPriceMicroLamports, ...rest } = JSON.parse(
    text,
  ) as Stored;
  return {
    ...rest,
    computeUnitPriceMicroLamports: BigInt(computeUnitPriceMicroLamports),
    spendable: {
      instructions: instructions.map(
        (i) =>
          new TransactionInstruction({
            programId: new PublicKey(i.p),
            keys: i.k.map(([key, flags]) => ({
              pubkey: new PublicKey(key),
              isSigner: (flags & 1) !== 0,
              isWritable: (flags & 2) !== 0,
            })),
            data: Buffer.from(i.d, "base64"),
          }),
      ),
      signatureCount,
      ...(tipAccounts !== undefined ? { tipAccounts: tipAccounts.map((t) => new PublicKey(t)) } : {}),
    },
  };
}

/**
 * Builds kept in `store`; `nowMs` is the clock. Expired rows are deleted by the process that builds, at most
 * once per BUILD_SWEEP_MS, off the request path (`onSweepError` hears a failed sweep).
 */
export function createOutsideBuilds(
  store: OutsideBuildStore,
  nowMs: () => number = Date.now,
  onSweepError: (e: unknown) => void = () => {},
): OutsideBuilds {
  let lastSweep = 0;
  return {
    async remember(message, build) {
      const now = nowMs();
      await store.insertOutsideBuild({
        hash: hashOf(message),
        apiKeyId: build.apiKeyId,
        build: encodeBuild(build),
        expiresAtMs: now + BUILD_TTL_MS,
      });
      if (now - lastSweep >= BUILD_SWEEP_MS) {
        lastSweep = now;
        store.deleteExpiredOutsideBuilds(now).catch(onSweepError);
      }
    },
    async take(apiKeyId, message, peek = false) {
      const text = await store.takeOutsideBuild(hashOf(message), apiKeyId, nowMs(), peek);
      return text === undefined ? undefined : decodeBuild(text);
    },
  };
}
