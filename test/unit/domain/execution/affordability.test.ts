/**
 * Issue 30: a buy the wallet cannot pay, with `simulate: true` (the default), answers the spec's
 * `trade simulation failed` (section 7, "simulation failed; nothing sent") and carries the explanation beside it;
 * with `simulate: false` nothing is simulated, and issue 22's own text stays the detail.
 */
import { describe, expect, it } from "vitest";
import { SPEC } from "../../../../src/core/errors.js";
import { insufficientSol } from "../../../../src/domain/execution/affordability.js";

const payer = { wallet: "W1", balanceLamports: 1_000_000_000n, what: "trade" };
const reason = "insufficient SOL: wallet W1 has 1.000000000 SOL, this trade needs about 1.500000000 SOL";

describe("insufficientSol", () => {
  it("is null when the balance covers the need", () => {
    expect(insufficientSol(payer, 1_000_000_000n)).toBeNull();
    expect(insufficientSol(payer, 1_000_000_000n, SPEC.trade.simulationFailed)).toBeNull();
  });

  it("with a simulation asked: the spec's detail, the reason and figures beside it", () => {
    const e = insufficientSol(payer, 1_500_000_000n, SPEC.trade.simulationFailed)!;
    expect(e.status).toBe(400);
    expect(e.detail).toBe("trade simulation failed");
    expect(e.extra).toEqual({
      reason,
      program_error: null,
      wallet: "W1",
      balance_lamports: "1000000000",
      required_lamports: "1500000000",
      needed_lamports: "1500000000",
    });
  });

  it("without a simulation: the insufficient-SOL text is the detail, with the same figures", () => {
    const e = insufficientSol({ ...payer, what: "bundle leg 1", leg: 1 }, 1_500_000_000n)!;
    expect(e.detail).toBe(reason.replace("this trade", "this bundle leg 1"));
    expect(e.extra).toMatchObject({
      required_lamports: "1500000000",
      balance_lamports: "1000000000",
      index: 1,
    });
  });
});
