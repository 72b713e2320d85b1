/**
 * The service's recorded IDL parts (src/launch/idl/upgrade-2026-10.json) against the localnet's own,
 * independently recorded ones (test/localnet/fixtures/idl-2026-10-instructions.json): every instruction
 * both record has the same discriminator, account order and flags, and argument names.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { recordedInstructions, type UpgradeProgram } from "../../../src/launch/upgrade-idl.js";

interface LocalnetRecord {
  discriminator: number[];
  accounts: string[];
  args: [string, string][];
}
const localnet = JSON.parse(
  readFileSync(new URL("../../localnet/fixtures/idl-2026-10-instructions.json", import.meta.url), "utf8"),
) as Record<UpgradeProgram, { instructions: Record<string, LocalnetRecord> }>;

describe("the two recordings of the October 2026 instructions agree", () => {
  for (const program of ["launch", "launchswap"] as const) {
    for (const ix of recordedInstructions(program)) {
      it(`${program} ${ix.name}`, () => {
        const other = localnet[program]?.instructions[ix.name];
        expect(other, `${program} ${ix.name} is not in the localnet's record`).toBeDefined();
        expect(ix.discriminator).toEqual(other!.discriminator);
        const flags = ix.accounts.map((a) => {
          const f = `${a.writable === true ? "W" : ""}${a.signer === true ? "S" : ""}`;
          return f === "" ? a.name : `${a.name}:${f}`;
        });
        expect(flags).toEqual(other!.accounts);
        expect(ix.args.map((a) => a.name)).toEqual(other!.args.map(([name]) => name));
      });
    }
  }
});
