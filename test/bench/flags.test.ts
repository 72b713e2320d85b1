/** The benches' flag readers (bench/flags.ts): present, absent, the value's word, a count's check. */
import { describe, expect, it } from "vitest";
import { countFlag, numberFlag, optionalFlag, stringFlag } from "../../bench/flags.js";

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

  it("a count given must be a non-negative number; absent, the fallback", () => {
    expect(countFlag(argv, "rounds", 40)).toBe(12);
    expect(countFlag(argv, "trades", 40)).toBe(40);
    expect(() => countFlag(argv, "store", 1)).toThrow("--store needs a non-negative number");
    expect(() => countFlag(["--lanes", "-2"], "lanes", 1)).toThrow("--lanes needs a non-negative number");
  });

  it("a flag given last without its word: the fallback for a word, undefined or NaN otherwise", () => {
    expect(stringFlag(argv, "pg", "none")).toBe("none");
    expect(optionalFlag(argv, "pg")).toBeUndefined();
    // numberFlag does not validate (its callers that need a valid count check it).
    expect(numberFlag(argv, "pg", 1)).toBeNaN();
  });
});
