/** The standalone benches' flag readers (bench/flags.ts): present, absent, and the value's word. */
import { describe, expect, it } from "vitest";
import { numberFlag, optionalFlag, stringFlag } from "../../bench/flags.js";

const argv = ["node", "bench/x.ts", "--rounds", "12", "--store", "file", "--pg"];

describe("bench flags", () => {
  it("reads the word after a flag, and the fallback (or undefined) when the flag is absent", () => {
    expect(numberFlag(argv, "rounds", 40)).toBe(12);
    expect(numberFlag(argv, "trades", 40)).toBe(40);
    expect(stringFlag(argv, "store", "memory")).toBe("file");
    expect(stringFlag(argv, "cross", "outside")).toBe("outside");
    expect(optionalFlag(argv, "store")).toBe("file");
    expect(optionalFlag(argv, "cross")).toBeUndefined();
  });

  it("a flag given last without its word: the fallback for a word, undefined or NaN otherwise", () => {
    expect(stringFlag(argv, "pg", "none")).toBe("none");
    expect(optionalFlag(argv, "pg")).toBeUndefined();
    // numberFlag does not validate (its callers that need a valid count check it).
    expect(numberFlag(argv, "pg", 1)).toBeNaN();
  });
});
