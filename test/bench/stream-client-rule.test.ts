/** The stream-following client's rule of the orders bench (bench/stream-client-rule.ts): which trade fires it. */
import { describe, expect, it } from "vitest";
import { crossesLevel } from "../../bench/stream-client-rule.js";

const level = { sol: 30_000_000_000n, tokens: 1_000_000_000_000_000n };
const trade = (sol: bigint, tokens: bigint, mint = "M") => ({
  type: "trade",
  mint,
  virtual_sol_reserves: sol.toString(),
  virtual_token_reserves: tokens.toString(),
});

describe("stream client rule", () => {
  it("fires on a trade of its mint at 5% over the armed spot price, not below", () => {
    expect(crossesLevel(trade(31_500_000_000n, level.tokens), "M", level)).toBe(true);
    expect(crossesLevel(trade(31_499_999_999n, level.tokens), "M", level)).toBe(false);
    // The price is SOL per token: fewer tokens in the curve for the same SOL is a higher price.
    expect(crossesLevel(trade(level.sol, 952_380_952_380_952n), "M", level)).toBe(true);
    expect(crossesLevel(trade(level.sol, 952_380_952_380_953n), "M", level)).toBe(false);
  });

  it("ignores other mints and other messages", () => {
    expect(crossesLevel(trade(40_000_000_000n, level.tokens, "N"), "M", level)).toBe(false);
    expect(crossesLevel({ type: "subscribed" }, "M", level)).toBe(false);
  });
});
