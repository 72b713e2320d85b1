import { describe, it, expect } from "vitest";
import { confirmSignature } from "../../../src/chain/confirm.js";
import { confirmBundle, RELAY_FAILED_REASON } from "../../../src/chain/confirm-bundle.js";
import type { Clock } from "../../../src/chain/clock.js";
import type { SignatureStatus } from "../../../src/chain/rpc-client.js";
import type { BundleStatus, InflightBundleStatus } from "../../../src/chain/bundle-relay-client.js";
import { sampleTransaction } from "../../helpers/fixtures.js";
import { ChainError } from "../../../src/chain/chain-error.js";
import { SPEC } from "../../../src/core/errors.js";
import { answerOf } from "../../../src/domain/execution/failure.js";
import { HttpError } from "../../../src/chain/upstream-errors.js";

/** A clock that only moves when someone sleeps: no real waiting, no timed assertions. */
function fakeClock(): Clock & { t: number } {
  const c = {
    t: 0,
    now: () => c.t,
    sleep: (ms: number) => {
      c.t += ms;
      return Promise.resolve();
    },
  };
  return c;
}

const tx = sampleTransaction();

function status(level: SignatureStatus["confirmationStatus"], err: unknown = null): SignatureStatus {
  return { slot: 10, confirmations: 0, err, confirmationStatus: level };
}

function harness(statuses: (SignatureStatus | null | Error)[], height = () => 100) {
  const sends: Uint8Array[] = [];
  let polls = 0;
  let heightCalls = 0;
  const rpc = {
    getSignatureStatuses: () => {
      const s = statuses[Math.min(polls++, statuses.length - 1)];
      if (s instanceof Error) return Promise.reject(s);
      return Promise.resolve({ slot: 1, value: [s ?? null] });
    },
    getBlockHeight: () => {
      heightCalls++;
      return Promise.resolve(height());
    },
    getTransactionLogs: () =>
      Promise.resolve([
        "Program log: Instruction: Buy",
        "Program 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P failed: custom program error: 0x1773",
      ]),
  };
  const relay = {
    sendTransaction: (w: Uint8Array) => {
      sends.push(w);
      return Promise.resolve(tx.signature);
    },
  };
  return { rpc, relay, sends, polls: () => polls, heightCalls: () => heightCalls };
}

const base = {
  signature: tx.signature,
  wire: tx.wire,
  lastValidBlockHeight: 150,
  pollMs: 100,
  rebroadcastMs: 300,
};

describe("confirmSignature", () => {
  it("stops at confirmed and rebroadcasts the same bytes until the signature is seen", async () => {
    const h = harness([null, null, null, null, null, status("processed"), status("confirmed")]);
    const r = await confirmSignature({
      ...base,
      rpc: h.rpc,
      relay: h.relay,
      timeoutMs: 10_000,
      clock: fakeClock(),
    });
    expect(r).toEqual({ confirmed: true, confirmationStatus: "confirmed" });
    expect(h.polls()).toBe(7);
    expect(h.sends.length).toBeGreaterThan(0);
    expect(h.sends.every((w) => Buffer.from(w).equals(Buffer.from(tx.wire)))).toBe(true);
  });

  it("returns confirmed false without error at the timeout", async () => {
    const h = harness([null]);
    const clock = fakeClock();
    const r = await confirmSignature({ ...base, rpc: h.rpc, relay: h.relay, timeoutMs: 1000, clock });
    expect(r).toEqual({ confirmed: false, confirmationStatus: null });
    expect(clock.t).toBe(1000);
  });

  it("keeps the last observed status when time runs out at processed", async () => {
    const h = harness([status("processed")]);
    const r = await confirmSignature({
      ...base,
      rpc: h.rpc,
      relay: h.relay,
      timeoutMs: 500,
      clock: fakeClock(),
    });
    expect(r).toEqual({ confirmed: false, confirmationStatus: "processed" });
    expect(h.sends).toHaveLength(0);
  });

  it("stops early when the blockhash has expired", async () => {
    const h = harness([null], () => 151);
    const r = await confirmSignature({
      ...base,
      rpc: h.rpc,
      relay: h.relay,
      timeoutMs: 60_000,
      clock: fakeClock(),
      expiryCheckEvery: 2,
    });
    expect(r).toEqual({ confirmed: false, confirmationStatus: null, expired: true });
    expect(h.polls()).toBe(2);
    expect(h.heightCalls()).toBe(1);
  });

  it("decodes an on-chain program error with a logs excerpt", async () => {
    const h = harness([null, status("confirmed", { InstructionError: [2, { Custom: 6003 }] })]);
    const r = await confirmSignature({
      ...base,
      rpc: h.rpc,
      relay: h.relay,
      timeoutMs: 10_000,
      clock: fakeClock(),
    });
    expect(r.confirmed).toBe(false);
    expect(r.failure?.programError).toMatchObject({
      program: "launch",
      code: 6003,
      name: "TooLittleSolReceived",
    });
    expect(r.failure?.logs).toHaveLength(2);
    expect(r.failure?.summary).toContain("TooLittleSolReceived");
  });

  it("asks again for the logs of a failure seen before getTransaction answers", async () => {
    const h = harness([status("processed", { InstructionError: [2, { Custom: 6003 }] })]);
    let logCalls = 0;
    const rpc = {
      ...h.rpc,
      getTransactionLogs: () => Promise.resolve(++logCalls < 3 ? null : ["Program log: Instruction: Sell"]),
    };
    const r = await confirmSignature({ ...base, rpc, relay: h.relay, timeoutMs: 10_000, clock: fakeClock() });
    expect(logCalls).toBe(3);
    expect(r.failure?.logs).toEqual(["Program log: Instruction: Sell"]);
  });

  it("rides out failed polls and reports unreachable only when no poll ever answered", async () => {
    const err = new HttpError("getSignatureStatuses", 500, "down");
    const h = harness([err, err, status("finalized")]);
    expect(
      await confirmSignature({ ...base, rpc: h.rpc, relay: h.relay, timeoutMs: 10_000, clock: fakeClock() }),
    ).toEqual({
      confirmed: true,
      confirmationStatus: "finalized",
    });
    const dead = harness([err]);
    const r = await confirmSignature({
      ...base,
      rpc: dead.rpc,
      relay: dead.relay,
      timeoutMs: 500,
      clock: fakeClock(),
    });
    expect(r).toMatchObject({ confirmed: false, confirmationStatus: null });
    expect(r.unreachable).toContain("HTTP 500");
  });
});

function bundleHarness(inflight: (InflightBundleStatus["status"] | null)[], landed: (BundleStatus | null)[]) {
  let i = 0;
  let j = 0;
  return {
    getInflightBundleStatuses: (ids: string[]) => {
      const s = inflight[Math.min(i++, inflight.length - 1)];
      return Promise.resolve([s ? { bundleId: ids[0]!, status: s, landedSlot: null } : null]);
    },
    getBundleStatuses: () => Promise.resolve([landed[Math.min(j++, landed.length - 1)] ?? null]),
  };
}

const landedOk: BundleStatus = {
  bundleId: "b",
  transactions: ["s"],
  slot: 9,
  confirmationStatus: "confirmed",
  err: null,
};

describe("confirmBundle", () => {
  it("treats Invalid and absent as propagating, then returns the landed status", async () => {
    const relay = bundleHarness(["Invalid", null, "Pending", "Landed"], [null, landedOk]);
    const r = await confirmBundle({
      bundleRelay: relay,
      bundleId: "b",
      timeoutMs: 30_000,
      pollMs: 1000,
      clock: fakeClock(),
    });
    expect(r).toEqual({ confirmed: true, confirmationStatus: "confirmed", slot: 9 });
  });

  it("fails early on Failed with the spec text", async () => {
    const clock = fakeClock();
    const relay = bundleHarness(["Pending", "Failed"], [null]);
    const e = await confirmBundle({
      bundleRelay: relay,
      bundleId: "b",
      timeoutMs: 30_000,
      pollMs: 1000,
      clock,
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ChainError);
    expect(answerOf(e)?.status).toBe(502);
    expect(e).toMatchObject({ reason: "bundle_failed", detail: SPEC.bundle.failed });
    // Issue 30: a reason beside the spec's detail, even when the relay gives none.
    expect(e).toMatchObject({ extra: { reason: RELAY_FAILED_REASON } });
    expect(clock.t).toBe(1000);
  });

  it("fails on a landed status carrying an error", async () => {
    const relay = bundleHarness(
      ["Landed"],
      [{ ...landedOk, err: { InstructionError: [0, "GenericError"] } }],
    );
    await expect(
      confirmBundle({
        bundleRelay: relay,
        bundleId: "b",
        timeoutMs: 30_000,
        pollMs: 1000,
        clock: fakeClock(),
      }),
    ).rejects.toMatchObject({
      reason: "bundle_failed",
      detail: SPEC.bundle.failed,
      extra: { reason: 'the bundle landed with an error: {"InstructionError":[0,"GenericError"]}' },
    });
  });

  it("times out with the spec text when nothing lands", async () => {
    const clock = fakeClock();
    const relay = bundleHarness(["Invalid"], [null]);
    await expect(
      confirmBundle({ bundleRelay: relay, bundleId: "b", timeoutMs: 30_000, pollMs: 1000, clock }),
    ).rejects.toMatchObject({
      reason: "bundle_timed_out",
      detail: SPEC.bundle.timedOut,
      extra: { confirmed: false, confirmation_status: null },
    });
    expect(clock.t).toBe(30_000);
  });
});
