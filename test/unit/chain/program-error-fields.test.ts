import { describe, expect, it } from "vitest";
import { programErrorFields } from "../../../src/chain/program-errors.js";

describe("programErrorFields", () => {
  it("a launch BondingCurveComplete (6005) names the awaiting_migration state beside the program error", () => {
    expect(programErrorFields({ program: "launch", code: 6005, name: "BondingCurveComplete" })).toEqual({
      program_error: { program: "launch", code: 6005, name: "BondingCurveComplete" },
      state: "awaiting_migration",
    });
  });
  it("any other error carries the program error alone", () => {
    expect(programErrorFields({ program: "launchswap", code: 6005, name: null })).toEqual({
      program_error: { program: "launchswap", code: 6005, name: null },
    });
    expect(
      programErrorFields({ program: "launch", code: 6021, name: "NotEnoughTokensToBuy" }),
    ).not.toHaveProperty("state");
  });
});
