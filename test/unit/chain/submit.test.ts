import { describe, it, expect } from "vitest";
import {
  submitAndConfirm,
  submitBundle,
  SubmissionError,
  type SubmitInput,
} from "../../../src/chain/submit.js";
import { sampleTransaction } from "../../helpers/fixtures.js";
import { HttpError, RpcError, TimeoutError } from "../../../src/chain/upstream-errors.js";
import { ChainError } from "../../../src/chain/chain-error.js";
import { SPEC } from "../../../src/core/errors.js";
import { answerOf } from "../../../src/domain/execution/failure.js";
import type { Clock } from "../../../src/chain/clock.js";

function fakeClock(): Clock {
  let t = 0;
  return { now: () => t, sleep: (ms) => ((t += ms), Promise.resolve()) };
}

const tx = sampleTransaction();

function input(overrides: { sim?: unknown; send?: () => Promise<string>; status?: string | null }) {
  const log: string[] = [];
  const rpc: SubmitInput["rpc"] = {
    simulateTransaction: () => {
      log.push("simulate");
      return Promise.resolve({
        slot: 1,
        value: { err: overrides.sim ?? null, logs: ["Program log: Instruction: Buy"], unitsConsumed: 1 },
      });
    },
    getSignatureStatuses: () => {
      log.push("status");
      const level = overrides.status === undefined ? "confirmed" : overrides.status;
      return Promise.resolve({
        slot: 1,
        value: [
          level ? { slot: 1, confirmations: 1, err: null, confirmationStatus: level as "confirmed" } : null,
        ],
      });
    },
    getBlockHeight: () => Promise.resolve(0),
    getTransactionLogs: () => Promise.resolve(null),
  };
  const relay = {
    sendTransaction: () => {
      log.push("send");
      return overrides.send ? overrides.send() : Promise.resolve(tx.signature);
    },
  };
  const value: SubmitInput = {
    rpc,
    relay,
    signature: tx.signature,
    wire: tx.wire,
    lastValidBlockHeight: 1000,
    simulate: true,
    confirm: true,
    simulationFailedDetail: SPEC.trade.simulationFailed,
    settings: { timeoutMs: 2000, pollMs: 100, rebroadcastMs: 500, clock: fakeClock() },
  };
  return { value, log };
}

describe("submitAndConfirm", () => {
  it("simulates, sends, confirms", async () => {
    const { value, log } = input({});
    const r = await submitAndConfirm(value);
    expect(r).toMatchObject({ signature: tx.signature, confirmed: true, confirmationStatus: "confirmed" });
    expect(log).toEqual(["simulate", "send", "status"]);
  });

  it("a failed simulation is a 400 with the spec text and the decoded error, and nothing is sent", async () => {
    const { value, log } = input({ sim: { InstructionError: [2, { Custom: 6002 }] } });
    const e = await submitAndConfirm(value).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SubmissionError);
    expect(e).toBeInstanceOf(ChainError);
    expect(answerOf(e)?.status).toBe(400);
    expect(e).toMatchObject({
      reason: "simulation_failed",
      detail: "trade simulation failed",
      maybeSent: false,
      extra: { program_error: { program: "launch", code: 6002, name: "TooMuchSolRequired" } },
    });
    expect(log).toEqual(["simulate"]);
  });

  it("relay failure is a 502 with the upstream detail and the signature", async () => {
    const { value } = input({
      send: () => Promise.reject(new RpcError("sendTransaction", -32602, "tip too small")),
    });
    const e = await submitAndConfirm({ ...value, simulate: false }).catch((x: unknown) => x);
    expect(answerOf(e)?.status).toBe(502);
    expect(e).toMatchObject({
      reason: "relay_refused",
      maybeSent: false,
      extra: { signature: tx.signature },
    });
    expect((e as ChainError).detail).toContain("tip too small");
    const timeout = input({ send: () => Promise.reject(new TimeoutError("sendTransaction", 5)) });
    const late = await submitAndConfirm(timeout.value).catch((x: unknown) => x);
    expect(answerOf(late)?.status).toBe(502);
    expect(late).toMatchObject({ reason: "relay_unreachable", maybeSent: true });
  });

  it("confirm false answers right after the send with a null status", async () => {
    const { value, log } = input({});
    const r = await submitAndConfirm({ ...value, simulate: false, confirm: false });
    expect(r).toMatchObject({ confirmed: false, confirmationStatus: null });
    expect(log).toEqual(["send"]);
  });

  it("a confirmation timeout is not an error", async () => {
    const { value } = input({ status: null });
    const r = await submitAndConfirm(value);
    expect(r).toMatchObject({ confirmed: false, confirmationStatus: null });
  });

  it("a simulation RPC failure is a 502 and nothing is sent", async () => {
    const { value, log } = input({});
    value.rpc.simulateTransaction = () => Promise.reject(new HttpError("simulateTransaction", 500, "boom"));
    const e = await submitAndConfirm(value).catch((x: unknown) => x);
    expect(answerOf(e)?.status).toBe(502);
    expect(e).toMatchObject({ reason: "rpc_unavailable", maybeSent: false });
    expect(log).toEqual([]);
  });
});

describe("submitBundle", () => {
  it("maps a relay rejection to 502 with the signatures", async () => {
    const e = await submitBundle({
      bundleRelay: {
        sendBundle: () =>
          Promise.reject(new HttpError("sendBundle", 400, "bundle does not lock any of the tip PDAs")),
        getInflightBundleStatuses: () => Promise.resolve([]),
        getBundleStatuses: () => Promise.resolve([]),
      },
      wires: [tx.wire],
      signatures: [tx.signature],
      confirm: true,
      timeoutMs: 1000,
      pollMs: 100,
      clock: fakeClock(),
    }).catch((x: unknown) => x);
    expect(answerOf(e)?.status).toBe(502);
    expect(e).toMatchObject({ reason: "relay_refused", extra: { signatures: [tx.signature] } });
    expect((e as ChainError).detail).toContain("tip PDAs");
  });

  it("returns the id without polling when confirm is false, and the spec timeout otherwise", async () => {
    let polls = 0;
    const bundleRelay = {
      sendBundle: () => Promise.resolve("ab".repeat(32)),
      getInflightBundleStatuses: () => (polls++, Promise.resolve([null])),
      getBundleStatuses: () => Promise.resolve([null]),
    };
    const common = {
      bundleRelay,
      wires: [tx.wire],
      signatures: [tx.signature],
      timeoutMs: 1000,
      pollMs: 100,
    };
    expect(await submitBundle({ ...common, confirm: false, clock: fakeClock() })).toEqual({
      bundleId: "ab".repeat(32),
      confirmed: false,
      confirmationStatus: null,
    });
    expect(polls).toBe(0);
    const late = await submitBundle({ ...common, confirm: true, clock: fakeClock() }).catch(
      (x: unknown) => x,
    );
    expect(answerOf(late)?.status).toBe(502);
    expect(late).toMatchObject({ reason: "bundle_timed_out", detail: SPEC.bundle.timedOut });
  });
});
