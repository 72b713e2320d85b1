/** Issue 30: the CLI says what a consolidation's per-source reserve is made of, on success and on refusal. */
import { describe, expect, it } from "vitest";
import { LaserTradeError } from "@lasertrade/client";
import { errorLines } from "../../../packages/cli/src/outcome.js";
import { describe as render } from "../../../packages/cli/src/render.js";

const breakdown = {
  requested_lamports: "5000",
  rent_exempt_minimum_lamports: "890880",
  fee_reserve_lamports: "890880",
  relay_tip_lamports: "1000",
  signature_fee_lamports: "5000",
  priority_fee_lamports: "1400",
  priority_fee_reserve_lamports: "6400",
  total_lamports: "898280",
};

describe("consolidate reserve in the CLI", () => {
  it("the answer's table shows every term of the reserve", () => {
    const out = render(
      {
        destination_wallet: "D",
        fee_reserve_lamports: 898280n,
        fee_reserve_breakdown: breakdown,
        transactions: [],
      },
      (s) => s,
    );
    expect(out).toMatch(/fee_reserve_breakdown\.fee_reserve_lamports\s+890880/);
    expect(out).toMatch(/fee_reserve_breakdown\.relay_tip_lamports\s+1000/);
    expect(out).toMatch(/fee_reserve_breakdown\.priority_fee_reserve_lamports\s+6400/);
  });

  it("a low-balance refusal prints the breakdown sentence under the spec's detail", () => {
    const reason = "effective reserve 898280 lamports = fee reserve 890880 (…) + relay tip 1000 + …";
    const e = new LaserTradeError(
      400,
      "source balance is too low after fee reserve: wallet W has 1 lamports",
      {
        reason,
        fee_reserve_breakdown: breakdown,
      },
    );
    expect(errorLines(e)[1]).toBe(`reason: ${reason}`);
  });
});
