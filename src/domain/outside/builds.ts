/**
 * The transactions built for outside wallets (issue 32), kept until their blockhash expires so that a send can
 * check it carries exactly the message built for its key. In memory, per process: a send reaches the process
 * that built it (docs/decisions.md, "Outside wallets").
 */
import { createHash } from "node:crypto";
import type { SpendableTransaction } from "../execution/worst-case-spend.js";

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
}

/** The builds of one process. */
export interface OutsideBuilds {
  remember(message: Uint8Array, build: OutsideBuild): void;
  /** The build of `message` by `apiKeyId`, taken once (a second send of it finds nothing). */
  take(apiKeyId: number, message: Uint8Array): OutsideBuild | undefined;
}

/** How long a build is kept: a recent blockhash's lifetime (150 blocks) with room. */
export const BUILD_TTL_MS = 120_000;
/** The most builds kept at once (the oldest go first). */
export const MAX_BUILDS = 100_000;

const hashOf = (message: Uint8Array): string => createHash("sha256").update(message).digest("base64");

/** An in-memory set of builds; `nowMs` is the clock. */
export function createOutsideBuilds(nowMs: () => number = Date.now): OutsideBuilds {
  // Insertion order is expiry order: one TTL for all.
  const builds = new Map<string, { at: number; build: OutsideBuild }>();
  const expire = (): void => {
    const cutoff = nowMs() - BUILD_TTL_MS;
    for (const [k, v] of builds) {
      if (v.at > cutoff && builds.size <= MAX_BUILDS) break;
      builds.delete(k);
    }
  };
  return {
    remember(message, build) {
      builds.set(hashOf(message), { at: nowMs(), build });
      expire();
    },
    take(apiKeyId, message) {
      expire();
      const h = hashOf(message);
      const entry = builds.get(h);
      if (entry === undefined || entry.build.apiKeyId !== apiKeyId) return undefined;
      builds.delete(h);
      return entry.build;
    },
  };
}
