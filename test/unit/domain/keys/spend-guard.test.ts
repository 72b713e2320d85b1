/**
 * Issue 29: the spend guard between build and signature (key re-read, per-execution cap on the request's
 * worst case, dry-run verdicts) and the rule of which added wallets count as the account's own.
 */
import { describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import { systemTransfer } from "../../../../src/chain/budget-instructions.js";
import { ApiError } from "../../../../src/core/errors.js";
import type { CustodyContext } from "../../../../src/domain/keys/custody-store.js";
import { storedPolicy } from "../../../../src/domain/keys/policy.js";
import { createSpendGuard, perExecutionVerdict } from "../../../../src/domain/keys/spend-guard.js";
import { vouchesForWallets } from "../../../../src/domain/keys/wallet-origin.js";
import type { KeyRecord } from "../../../../src/store/index.js";
import { keyRecord } from "../../../helpers/fixtures.js";

const key = (over: Partial<KeyRecord> = {}): KeyRecord =>
  keyRecord({
    scopes: ["transfer"],
    policy: { max_sol_per_execution: "1" },
    createdAt: "2026-01-01T00:00:00.000",
    ...over,
  });
const from = Keypair.generate().publicKey;
const transfer = (lamports: bigint) => ({
  instructions: [systemTransfer(from, Keypair.generate().publicKey, lamports)],
  signatureCount: 1,
  tipAccounts: [],
});

/** The guard of `ctx` over a store whose key row is `stored` (null: the key is gone). */
function guardOf(ctx: CustodyContext, stored: KeyRecord | null = ctx.key) {
  return createSpendGuard(ctx, {
    store: { findKey: async () => stored ?? undefined, spentLamports: async () => 0n },
    clock: () => new Date(0),
    computeUnitLimit: () => 200_000,
  });
}

describe("spend guard", () => {
  it("re-reads the key: frozen account or key → 403 frozen, revoked → 401, unchanged → passes", async () => {
    const ctx: CustodyContext = { key: key(), wallets: new Set(), executionIds: [] };
    await expect(guardOf(ctx).beforeSign()).resolves.toBeUndefined();
    for (const [stored, status] of [
      [key({ accountFrozen: true }), 403],
      [key({ frozen: true }), 403],
      [key({ revokedAt: "2026-01-01T00:00:00.000" }), 401],
      [null, 401],
    ] as const) {
      const e = await guardOf(ctx, stored)
        .beforeSign()
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).status).toBe(status);
    }
  });

  it("sums the request's transactions against max_sol_per_execution; a dry run records the verdict", () => {
    const ctx: CustodyContext = { key: key(), wallets: new Set(), executionIds: [] };
    const guard = guardOf(ctx);
    expect(guard.inspect?.(transfer(600_000_000n)).amount).toBe(600_000_000n);
    expect(() => guard.inspect?.(transfer(600_000_000n))).toThrow(
      "policy max_sol_per_execution: this execution needs 1.20, at most 1 SOL per execution",
    );
    const dry: CustodyContext = { key: key(), wallets: new Set(), executionIds: [], dryRun: true };
    const dryGuard = guardOf(dry);
    dryGuard.inspect?.(transfer(2_000_000_000n));
    expect(dry.verdict?.rule).toBe("max_sol_per_execution");
  });

  it("has no inspection for a key without a SOL cap (nothing computed per transaction)", () => {
    const ctx: CustodyContext = { key: key({ policy: null }), wallets: new Set(), executionIds: [] };
    expect(guardOf(ctx).inspect).toBeUndefined();
  });

  it("an unbounded transaction is refused by a per-execution cap", () => {
    const verdict = perExecutionVerdict(storedPolicy({ max_sol_per_execution: "1" }), "trade", {
      amount: 0n,
      rent: 0n,
      tip: 0n,
      fee: 0n,
      unbounded: true,
    });
    expect(verdict?.detail).toBe("policy max_sol_per_execution: the spend of this trade cannot be bounded");
  });
});

describe("vouchesForWallets", () => {
  it("only a key that could pay anywhere vouches for the wallets it adds", () => {
    const none = storedPolicy(null);
    const restricted = storedPolicy({ destinations_allow: [] });
    expect(vouchesForWallets(key({ root: true, scopes: null }), none)).toBe(true);
    expect(vouchesForWallets(key({ scopes: ["wallets", "transfer"] }), none)).toBe(true);
    expect(vouchesForWallets(key({ scopes: ["wallets", "transfer"] }), restricted)).toBe(false);
    expect(vouchesForWallets(key({ scopes: ["wallets"] }), none)).toBe(false);
    expect(vouchesForWallets(key({ scopes: ["wallets", "trade"] }), none)).toBe(false);
  });
});
