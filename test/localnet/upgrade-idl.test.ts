/**
 * The October 2026 instructions as the localnet knows them agree with the IDL facts recorded in
 * fixtures/ (discriminator, account order and flags, argument layout), and exist only on the 2026-10
 * generation: 2026-09 answers them like any unknown instruction (InstructionFallbackNotFound, 101).
 */
import { createHash } from "node:crypto";
import { PublicKey } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { emulatedPrograms } from "../../localnet/programs/index.js";
import { idlInstruction } from "../../localnet/programs/launch/account-checks.js";
import type { InstructionContext, LedgerAccess } from "../../localnet/programs/types.js";
import { ProgramFailure } from "../../localnet/programs/types.js";
import {
  decodeUpgradeInstruction,
  encodeUpgradeInstruction,
  UPGRADE_INSTRUCTIONS,
} from "../../localnet/programs/upgrade/instructions.js";
import { fixtureIx, recordedAll } from "./upgrade-fixture.js";

const flags = (a: { name: string; writable?: boolean; signer?: boolean }) =>
  `${a.name}${a.writable || a.signer ? ":" : ""}${a.writable ? "W" : ""}${a.signer ? "S" : ""}`;

/** Sample arguments: distinct values so a swapped pair of arguments shows. */
function sampleArgs(args: [string, string][]): Record<string, bigint | boolean> {
  return Object.fromEntries(
    args.map(([n, kind], i) => [n, kind === "u64" ? 1_000_003n * BigInt(i + 1) + 7n : true]),
  );
}

/** Runs `data` through the emulated program of `program` with no accounts; returns the failure code. */
function failureOf(generation: "2026-09" | "2026-10", program: "launch" | "launchswap", data: Buffer) {
  const [launch, swap] = emulatedPrograms({ cashbackCreation: false, generation });
  const target = program === "launch" ? launch! : swap!;
  const ctx: InstructionContext = {
    programId: target.programId,
    accounts: [],
    data,
    // Decoding fails or the account count check fires before any account is read.
    ledger: {} as LedgerAccess,
    log: () => undefined,
  };
  try {
    target.execute(ctx);
  } catch (e) {
    if (e instanceof ProgramFailure) return e.code;
    throw e;
  }
  return null;
}

describe("the upgrade's instructions agree with the recorded IDL", () => {
  for (const { program, name, ix } of recordedAll()) {
    it(`${program}.${name}: discriminator, accounts and arguments`, () => {
      const anchorDisc = [...createHash("sha256").update(`global:${name}`).digest().subarray(0, 8)];
      expect(ix.discriminator).toEqual(anchorDisc);
      if (name === "migrate_v2") {
        // Already in the installed SDK's IDL (both generations): the localnet checks it against that.
        const sdk = idlInstruction("migrate_v2");
        expect(sdk.discriminator).toEqual(ix.discriminator);
        expect(sdk.accounts.map(flags)).toEqual(ix.accounts);
        return;
      }
      const spec = UPGRADE_INSTRUCTIONS.find((s) => s.program === program && s.name === name);
      expect(spec, "the localnet knows the instruction").toBeDefined();
      expect(spec!.discriminator).toEqual(ix.discriminator);
      expect(spec!.accounts.map(flags)).toEqual(ix.accounts);
      expect(spec!.args.map((a) => [a.name, a.kind])).toEqual(ix.args);
      const args = sampleArgs(ix.args);
      const keys = keysFor(ix.accounts);
      const built = fixtureIx(program, name, keys, args);
      const decoded = decodeUpgradeInstruction(program, built.data);
      expect(decoded).not.toBe("unknown");
      expect(decoded).not.toBe("malformed");
      if (typeof decoded === "string") return;
      expect(decoded.spec.name).toBe(name);
      expect(decoded.args).toEqual(args);
      expect(encodeUpgradeInstruction(decoded.spec, args)).toEqual(built.data);
    });
  }

  it("an optional partial_fill may be left off; a truncated or padded instruction is malformed", () => {
    const buy = UPGRADE_INSTRUCTIONS.find((s) => s.program === "launch" && s.name === "buy_v3")!;
    const short = encodeUpgradeInstruction(buy, { amount: 5n, max_sol_cost: 9n, partial_fill: null });
    expect(short.length).toBe(24);
    const d = decodeUpgradeInstruction("launch", short);
    expect(typeof d === "string" ? d : d.args).toEqual({ amount: 5n, max_sol_cost: 9n, partial_fill: null });
    expect(decodeUpgradeInstruction("launch", short.subarray(0, 20))).toBe("malformed");
    expect(decodeUpgradeInstruction("launch", Buffer.concat([short, Buffer.from([1, 0])]))).toBe("malformed");
    expect(decodeUpgradeInstruction("launch", Buffer.concat([short, Buffer.from([2])]))).toBe("malformed");
  });
});

describe("which generation has them", () => {
  for (const { program, name, ix } of recordedAll().filter((r) => r.name !== "migrate_v2")) {
    it(`${program}.${name}: unknown on 2026-09, recognised on 2026-10`, () => {
      const data = fixtureIx(program, name, keysFor(ix.accounts), sampleArgs(ix.args)).data;
      expect(failureOf("2026-09", program, data)).toBe(101);
      // Recognised: it gets as far as the account count (AccountNotEnoughKeys).
      expect(failureOf("2026-10", program, data)).toBe(3005);
      // Malformed arguments of a known instruction: InstructionDidNotDeserialize.
      if (ix.args.length > 0) expect(failureOf("2026-10", program, data.subarray(0, 12))).toBe(102);
    });
  }

  it("migrate_v2 is in both generations' IDL (it predates the upgrade)", () => {
    const data = Buffer.from(idlInstruction("migrate_v2").discriminator);
    for (const g of ["2026-09", "2026-10"] as const) expect(failureOf(g, "launch", data)).not.toBe(101);
  });
});

/** Every account of a list as one placeholder key (the decoder never reads them). */
function keysFor(accounts: string[]): Record<string, PublicKey> {
  const stub = PublicKey.unique();
  return Object.fromEntries(accounts.map((a) => [a.split(":")[0]!, stub]));
}
