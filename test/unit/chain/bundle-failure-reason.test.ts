/** Issue 22: a bundle the relay reports Failed says which leg failed and why (its simulation). */
import { describe, expect, it } from "vitest";
import { submitBundle } from "../../../src/chain/submit.js";
import { SPEC } from "../../../src/core/errors.js";
import { answerOf } from "../../../src/domain/execution/failure.js";
import type { Clock } from "../../../src/chain/clock.js";
import { sampleTransaction } from "../../helpers/fixtures.js";

const clock: Clock = { now: () => 0, sleep: () => Promise.resolve() };
const tx = sampleTransaction();
const failedRelay = {
  sendBundle: () => Promise.resolve("ab".repeat(32)),
  getInflightBundleStatuses: () =>
    Promise.resolve([{ bundleId: "ab".repeat(32), status: "Failed" as const, landedSlot: null }]),
  getBundleStatuses: () => Promise.resolve([null]),
};

describe("a failed bundle's reason", () => {
  it("names the failing leg with its decoded error and logs", async () => {
    const logs = [
      "Program 11111111111111111111111111111111 invoke [1]",
      "Transfer: insufficient lamports 10000000, need 1000000000",
      "Program 11111111111111111111111111111111 failed: custom program error: 0x1",
    ];
    const e = await submitBundle({
      bundleRelay: failedRelay,
      rpc: {
        simulateTransaction: () =>
          Promise.resolve({
            slot: 1,
            value: { err: { InstructionError: [2, { Custom: 1 }] }, logs, unitsConsumed: 1 },
          }),
      },
      wires: [tx.wire],
      signatures: [tx.signature],
      confirm: true,
      timeoutMs: 1000,
      pollMs: 100,
      clock,
    }).catch((x: unknown) => x);
    // The chain error knows no HTTP status (issue 17); the domain answers it as the 502 it always was.
    expect(answerOf(e)?.status).toBe(502);
    expect(e).toMatchObject({
      reason: "bundle_failed",
      detail: SPEC.bundle.failed,
      maybeSent: true,
      extra: {
        failed_leg: 0,
        program_error: { program: "system", name: "ResultWithNegativeLamports" },
        signatures: [tx.signature],
      },
    });
    expect((e as { extra: { reason: string } }).extra.reason).toContain("insufficient SOL");
  });
});
