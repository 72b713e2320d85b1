/** LOCALNET_PROGRAMS: the sandbox localnet's program generation, and the localnet's own parser of it. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/config.js";
import {
  DEFAULT_PROGRAM_GENERATION,
  PROGRAM_GENERATIONS,
  parseProgramGeneration,
} from "../../../localnet/programs/generation.js";
import { configErrorOf } from "../../helpers/config-error.js";

describe("LOCALNET_PROGRAMS", () => {
  it("defaults to the live generation and takes either one", () => {
    expect(loadConfig({}).localnetPrograms).toBe("2026-10");
    expect(loadConfig({ LOCALNET_PROGRAMS: "2026-09" }).localnetPrograms).toBe("2026-09");
    expect(DEFAULT_PROGRAM_GENERATION).toBe("2026-10");
  });

  it("refuses anything else, naming the variable", () => {
    expect(configErrorOf({ LOCALNET_PROGRAMS: "2026-11" }).message).toContain("LOCALNET_PROGRAMS");
    expect(() => parseProgramGeneration("october")).toThrow(
      /LOCALNET_PROGRAMS must be one of 2026-09, 2026-10/,
    );
  });

  it("the config and the localnet list the same generations", async () => {
    const { LOCALNET_PROGRAM_GENERATIONS } = await import("../../../src/config/config.js");
    expect([...LOCALNET_PROGRAM_GENERATIONS]).toEqual([...PROGRAM_GENERATIONS]);
    expect(parseProgramGeneration(undefined)).toBe("2026-10");
    expect(parseProgramGeneration(" 2026-09 ")).toBe("2026-09");
  });
});
