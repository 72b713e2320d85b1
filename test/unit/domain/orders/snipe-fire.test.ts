/**
 * How the snipe book settles each fire it claimed (never left `claimed`): a failure before its record is
 * written failed with its reason (the rule it names, else its detail), a fire that threw follows the execution
 * recorded under its key (or fails with the error's message), and the reconciliation settles only the claims no
 * fire of this process is working on. The store is a recording double; the store's own side is
 * test/store/order-fires.test.ts.
 */
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import type { OrderFireRecord, OrderRecord } from "../../../../src/store/index.js";
import type { FireOutcome } from "../../../../src/domain/orders/fire.js";
import { parseSnipeRequest } from "../../../../src/domain/orders/snipe.js";
import {
  SnipeBook,
  snipeFireKey,
  snipeSpecOf,
  type SnipeDeps,
} from "../../../../src/domain/orders/snipe-engine.js";

const creator = Keypair.generate().publicKey.toBase58();
const bounds = { priorityFeeMaxLamports: 100_000_000n, tipMaxLamports: 100_000_000n };
const now = new Date("2026-11-28T20:00:00Z");
const req = parseSnipeRequest({ kind: "snipe", amount: "0.1", creators: [creator] }, bounds, now);
const spec = snipeSpecOf(req);
const order: OrderRecord = {
  id: "ord_1",
  accountId: 7,
  keyId: 7,
  kind: "snipe",
  side: "buy",
  mint: "*",
  wallet: Keypair.generate().publicKey.toBase58(),
  spec: "{}",
  state: "open",
  version: 1,
  attempt: 0,
  leaseOwner: null,
  leaseUntilMs: null,
  peak: null,
  triggeredBy: null,
  error: null,
  executionIds: [],
  expiresAt: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
};

/** A book over a store double that records each settling call; `recorded` maps Idempotency-Keys to executions. */
function bookWith(
  fire: SnipeDeps["fire"],
  opts: { recorded?: Record<string, string>; unsettled?: OrderFireRecord[] } = {},
) {
  const calls: unknown[][] = [];
  const errors: unknown[] = [];
  const outcomes: FireOutcome[] = [];
  const store: SnipeDeps["store"] = {
    claimOrderFire: async () => "claimed",
    setOrderFireExecution: async (...a) => void calls.push(["execution", ...a]),
    refuseOrderFire: async (...a) => void calls.push(["refuse", ...a]),
    failOrderFire: async (...a) => void calls.push(["fail", ...a]),
    unsettledOrderFires: async () => opts.unsettled ?? [],
    reconcileOrderFire: async (...a) => {
      calls.push(["reconcile", ...a]);
      return true;
    },
    findExecutionIdByKey: async (_account, key) => opts.recorded?.[key],
    findExecution: async () =>
      ({ status: "confirmed" }) as Awaited<ReturnType<SnipeDeps["store"]["findExecution"]>>,
  };
  const book = new SnipeBook({
    store,
    fire,
    warmWallet: async () => undefined,
    clock: () => now,
    onError: (e) => errors.push(e),
    onFired: (_o, _m, outcome) => outcomes.push(outcome),
  });
  book.add(order, spec);
  return { book, calls, errors, outcomes };
}

/** A create event of `creator`'s (the order's rule matches it); its mint. */
function fireOn(book: SnipeBook): string {
  const mint = Keypair.generate().publicKey.toBase58();
  book.onCreate({ event: { kind: "create", mint, creator, user: creator } as never, initialBuyLamports: 0n });
  return mint;
}

const settled = (book: SnipeBook) => Promise.all([...book.inflight]);

describe("snipe fires settle", () => {
  it.each([
    ["a failure naming no rule keeps its detail", {}, "failed:insufficient SOL: wallet W has 0.1 SOL"],
    ["a failure naming a rule keeps the rule", { rule: "frozen" }, "failed:frozen"],
  ])("%s (nothing recorded: failed, not left claimed)", async (_name, extra, stored) => {
    const failed: FireOutcome = {
      kind: "failed",
      detail: "insufficient SOL: wallet W has 0.1 SOL",
      status: 400,
      executionId: null,
      extra,
    };
    const { book, calls } = bookWith(async () => failed);
    const mint = fireOn(book);
    await settled(book);
    expect(calls).toEqual([["fail", "ord_1", mint, stored]]);
  });

  it("a fire that threw before its record fails with the error's message, reported", async () => {
    const { book, calls, errors, outcomes } = bookWith(() => Promise.reject(new Error("build exploded")));
    const mint = fireOn(book);
    await settled(book);
    expect(calls).toEqual([["fail", "ord_1", mint, "failed:build exploded"]]);
    expect(errors.map((e) => (e as Error).message)).toEqual(["build exploded"]);
    expect(outcomes).toMatchObject([{ kind: "failed", status: 500, executionId: null }]);
  });

  it("a fire that threw after its record follows the recorded execution (it may have been sent)", async () => {
    const recorded: Record<string, string> = {};
    const { book, calls } = bookWith(
      (_o, _s, key) => {
        // As the pipeline does: the record is written before the send, then something throws.
        recorded[key] = "exec-1";
        return Promise.reject(new Error("after the record"));
      },
      { recorded },
    );
    const mint = fireOn(book);
    await settled(book);
    expect(Object.keys(recorded)).toEqual([snipeFireKey("ord_1", mint)]);
    expect(calls).toEqual([["execution", "ord_1", mint, "exec-1", "pending"]]);
  });

  it("a refusal keeps its row refused; a sent fire notes its execution and its state", async () => {
    const refused = bookWith(async () => ({
      kind: "refused",
      refusal: { rule: "max_sol_per_execution", detail: "over" },
    }));
    const m1 = fireOn(refused.book);
    const sent = bookWith(async () => ({ kind: "filled", executionId: "exec-2" }));
    const m2 = fireOn(sent.book);
    await Promise.all([settled(refused.book), settled(sent.book)]);
    expect(refused.calls).toEqual([
      ["refuse", "ord_1", m1, { rule: "max_sol_per_execution", detail: "over" }],
    ]);
    expect(sent.calls).toEqual([["execution", "ord_1", m2, "exec-2", "filled"]]);
  });

  it("the reconciliation skips a claim whose fire is under way here; others settle from their record or dropped", async () => {
    let release: (o: FireOutcome) => void = () => undefined;
    const slow = new Promise<FireOutcome>((r) => (release = r));
    const row = (mint: string): OrderFireRecord => ({
      orderId: "ord_1",
      accountId: 7,
      mint,
      lamports: 1n,
      executionId: null,
      atMs: 0,
      refused: null,
      outcome: null,
    });
    const unsettled: OrderFireRecord[] = [];
    const recorded: Record<string, string> = { [snipeFireKey("ord_1", "MintRecorded")]: "exec-3" };
    let started: () => void = () => undefined;
    const firing = new Promise<void>((r) => (started = r));
    const { book, calls } = bookWith(
      () => {
        started();
        return slow;
      },
      { recorded, unsettled },
    );
    const busy = fireOn(book);
    await firing;
    unsettled.push(row(busy), row("MintRecorded"), row("MintGone"));
    expect(await book.reconcile(1)).toBe(2);
    expect(calls).toEqual([
      ["reconcile", "ord_1", "MintRecorded", "exec-3", "filled"],
      ["reconcile", "ord_1", "MintGone", null, "dropped:process_ended"],
    ]);
    release({ kind: "pending", executionId: "exec-4" });
    await settled(book);
    expect(calls[2]).toEqual(["execution", "ord_1", busy, "exec-4", "pending"]);
  });
});
