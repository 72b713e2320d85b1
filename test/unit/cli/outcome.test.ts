/** Issue 22: the CLI's outcome wording and exit codes (packages/cli/src/outcome.ts). */
import { describe, expect, it } from "vitest";
import { LaserTradeError } from "@lasertrade/client";
import {
  errorLines,
  EXIT,
  exitCodeOf,
  exitCodeOfError,
  unconfirmedAnswer,
  mayStillLand,
  phaseLines,
  statusExitCode,
} from "../../../packages/cli/src/outcome.js";

const id = "0b7a6f0e-3c1d-4a57-9a57-1d2f0c9b8e11";

describe("CLI outcomes", () => {
  it("phases end in landed, or in the unconfirmed line with the follow-up command; never 'done'", () => {
    const landed = { execution_id: id, signature: "SIG", confirmed: true };
    expect(phaseLines(landed, true, 1.23)).toEqual([
      "✓ built and signed",
      "✓ sent: SIG",
      "✓ landed (confirmed) after 1.2s",
    ]);
    expect(exitCodeOf(landed, true)).toBe(EXIT.ok);
    const lost = { ...landed, confirmed: false };
    expect(phaseLines(lost, true, 30.1).at(-1)).toBe(
      `sent, not confirmed within 30 s: SIG, follow with \`lasertrade status ${id}\``,
    );
    expect(exitCodeOf(lost, true)).toBe(EXIT.unconfirmed);
    // --no-confirm asked not to wait: exit 0, and still no "done".
    expect(exitCodeOf(lost, false)).toBe(EXIT.ok);
    expect(phaseLines(lost, false, 0.2).join("\n")).not.toContain("done");
    // Multi-transaction answers: any unconfirmed transaction makes the exit 3.
    const claims = { transactions: [landed, lost] };
    expect(exitCodeOf(claims, true)).toBe(EXIT.unconfirmed);
    expect(statusExitCode("finalized")).toBe(0);
    expect(statusExitCode("expired")).toBe(1);
    expect(statusExitCode("submitted")).toBe(3);
  });

  it("prints the error's machine code beside its detail when the service sent one", () => {
    const coded = new LaserTradeError(400, "trade simulation failed", { code: "trade.simulation_failed" });
    expect(coded.code).toBe("trade.simulation_failed");
    expect(errorLines(coded)[0]).toBe("error [trade.simulation_failed]: trade simulation failed (HTTP 400)");
    expect(errorLines(new LaserTradeError(0, "network error: refused"))[0]).toBe(
      "error: network error: refused",
    );
  });

  it("prints the decoded program error and the last logs; 'may still land' only when nobody said it failed", () => {
    const onChain = new LaserTradeError(502, "transaction failed on chain: launch program error 6021", {
      signature: "SIG",
      execution_id: id,
      program_error: { program: "launch", code: 6021, name: "NotEnoughTokensToBuy" },
      logs: Array.from({ length: 12 }, (_, i) => `Program log: line ${i}`),
    });
    const lines = errorLines(onChain);
    expect(lines).toContain("program error: launch NotEnoughTokensToBuy (code 6021)");
    expect(lines).toContain("  Program log: line 11");
    expect(lines).not.toContain("  Program log: line 3");
    expect(lines.join("\n")).not.toContain("may still land");

    const bundle = new LaserTradeError(502, "bundle failed", { signatures: ["A", "B"], index: 1 });
    expect(mayStillLand(bundle)).toBe(false);
    expect(errorLines(bundle)).toContain("bundle leg: 1");

    // Issue 30: the reason beside the spec's detail is printed, not only `bundle failed (HTTP 502)`.
    const why = new LaserTradeError(502, "bundle failed", {
      reason: "relay said: leg 1 failed",
      failed_leg: 1,
    });
    expect(errorLines(why).slice(0, 3)).toEqual([
      "error: bundle failed (HTTP 502)",
      "reason: relay said: leg 1 failed",
      "failed leg: 1",
    ]);

    const reset = new LaserTradeError(502, "relay request failed: socket hang up", { signature: "SIG" });
    expect(mayStillLand(reset)).toBe(true);
    expect(errorLines(reset).at(-1)).toContain("it may still land: follow with `lasertrade status SIG`");
  });

  it("a bundle's confirmation timeout is unconfirmed (exit 3, the follow-up line), not a failure", () => {
    const body = {
      bundle_id: "ab",
      signatures: ["SIG"],
      execution_id: id,
      results: [{ index: 0, type: "buy", wallet: "W", signature: "SIG" }],
      mint: "M",
      confirmed: false,
      confirmation_status: null,
    };
    const timedOut = new LaserTradeError(502, "bundle confirmation timed out", body);
    const answer = unconfirmedAnswer(timedOut);
    expect(answer).toMatchObject(body);
    expect(exitCodeOf(answer, true)).toBe(EXIT.unconfirmed);
    expect(phaseLines(answer, true, 30).at(-1)).toBe(
      `sent, not confirmed within 30 s: SIG, follow with \`lasertrade status ${id}\``,
    );
    expect(exitCodeOfError(timedOut)).toBe(EXIT.unconfirmed);
    expect(mayStillLand(timedOut)).toBe(true);
    const failed = new LaserTradeError(502, "bundle failed", { ...body, reason: "r" });
    expect(unconfirmedAnswer(failed)).toBeUndefined();
    expect(exitCodeOfError(failed)).toBe(EXIT.failed);
  });
});
