/**
 * The execution pipeline with three-line fakes: the record is written (pending, with the signature) before
 * anything is submitted, and each outcome lands on the record with the right status.
 */
import { describe, expect, it } from "vitest";
import { Keypair, type TransactionInstruction } from "@solana/web3.js";
import type { ChainTransaction } from "../../../src/chain/chain.js";
import { SubmissionError, type SubmitResult } from "../../../src/chain/submit.js";
import { ApiError, EXECUTION, SPEC } from "../../../src/core/errors.js";
import { failureOutcome } from "../../../src/domain/execution/failure.js";
import { requireChain } from "../../../src/domain/execution/gate.js";
import { runSingleExecution } from "../../../src/domain/execution/pipeline.js";
import { type ExecutionDeps } from "../../../src/domain/execution/types.js";
import type { ExecutionPatch, NewExecution } from "../../../src/store/index.js";
import type { SealedWallet } from "../../../src/vault/index.js";
import { storedExecution } from "../../helpers/fixtures.js";

const wallet: SealedWallet = { publicKey: "W", ciphertext: "", nonce: "", tag: "", keyId: "k" };

function fakes(submit: () => Promise<SubmitResult>) {
  const events: string[] = [];
  const patches: ExecutionPatch[] = [];
  const deps: ExecutionDeps = {
    store: {
      insertExecution: async (e: NewExecution) => {
        events.push(`insert ${e.status} ${e.signatures.join(",")}`);
        return storedExecution(e);
      },
      updateExecution: async (_id: string, p: ExecutionPatch) => {
        events.push(`update ${p.status}`);
        patches.push(p);
        return undefined;
      },
    },
    chain: {
      assemble: () => {
        events.push("assemble");
        return { signature: "SIG" } as ChainTransaction;
      },
      submit: async () => {
        events.push("submit");
        return submit();
      },
      submitBundle: async () => {
        throw new Error("not used");
      },
    },
    vault: {
      withKeypair: async (_w, fn) => {
        events.push("decrypt");
        return fn(Keypair.generate());
      },
    },
  };
  return { deps, events, patches };
}

const input = (deps: ExecutionDeps, confirm = true) => ({
  deps,
  apiKeyId: 1,
  kind: "trade" as const,
  wallet,
  request: { a: 1 },
  build: () => ({ instructions: [] as TransactionInstruction[], computeKind: "trade" as const }),
  simulate: true,
  confirm,
  simulationFailedDetail: SPEC.trade.simulationFailed,
});

const ok = (confirmed: boolean): SubmitResult => ({
  signature: "SIG",
  confirmed,
  confirmationStatus: confirmed ? "confirmed" : null,
  timingMs: { sender: 1, confirmation: 2 },
});

describe("runSingleExecution", () => {
  it("records pending with the signature before submitting, then confirmed", async () => {
    const { deps, events, patches } = fakes(async () => ok(true));
    const r = await runSingleExecution(input(deps));
    expect(events).toEqual(["decrypt", "assemble", "insert pending SIG", "submit", "update confirmed"]);
    expect(r).toMatchObject({ signature: "SIG", confirmed: true, confirmationStatus: "confirmed" });
    expect(patches[0]?.response).toMatchObject({ signature: "SIG", confirmed: true });
  });

  it("stores submitted without confirm, timeout when the wait ended", async () => {
    const a = fakes(async () => ok(false));
    await runSingleExecution(input(a.deps, false));
    expect(a.patches[0]?.status).toBe("submitted");
    const b = fakes(async () => ok(false));
    await runSingleExecution(input(b.deps, true));
    expect(b.patches[0]?.status).toBe("timeout");
  });

  it("records a refused simulation as failed with its program error, and rethrows it", async () => {
    const refusal = new SubmissionError(
      "simulation_failed",
      SPEC.trade.simulationFailed,
      { program_error: { program: "launch", code: 6002, name: "TooMuchSolRequired" }, logs: ["x"] },
      false,
    );
    const { deps, patches } = fakes(async () => {
      throw refusal;
    });
    await expect(runSingleExecution(input(deps))).rejects.toBe(refusal);
    expect(patches[0]).toMatchObject({
      status: "failed",
      error: { status: 400, detail: SPEC.trade.simulationFailed, program_error: { code: 6002 } },
    });
  });
});

describe("failureOutcome", () => {
  it("maps each kind of failure to a status", () => {
    expect(
      failureOutcome(new SubmissionError("relay_unreachable", "relay down", { signature: "S" }, true)).status,
    ).toBe("submitted");
    expect(
      failureOutcome(new SubmissionError("relay_refused", "refused", { signature: "S" }, false)).status,
    ).toBe("failed");
    expect(failureOutcome(new SubmissionError("landed_with_error", "landed", {}, true, true)).status).toBe(
      "failed",
    );
    expect(
      failureOutcome(new SubmissionError("bundle_timed_out", SPEC.bundle.timedOut, { bundle_id: "B" }, true)),
    ).toMatchObject({
      status: "timeout",
      bundleId: "B",
    });
    expect(failureOutcome(new SubmissionError("bundle_failed", SPEC.bundle.failed, {}, true)).status).toBe(
      "failed",
    );
    expect(failureOutcome(new Error("boom")).status).toBe("pending");
  });

  it("requireChain answers 503 without a chain or before its caches load", () => {
    expect(() => requireChain(undefined)).toThrow(new ApiError(503, EXECUTION.chainUnavailable));
    const notStarted = {
      caches: {
        blockhash: () => {
          throw new Error("chain caches not started");
        },
      },
    };
    expect(() => requireChain(notStarted)).toThrow(new ApiError(503, EXECUTION.chainNotReady));
    const ready = { caches: { blockhash: () => ({ blockhash: "x", lastValidBlockHeight: 1 }) } };
    expect(requireChain(ready)).toBe(ready);
  });
});
