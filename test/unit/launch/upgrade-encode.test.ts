/**
 * buildUpgradeInstruction encodes the data of the recorded instructions itself (u64 and OptionBool args): the
 * bytes are Anchor's coder's over the same recorded IDL, for every recorded instruction of both programs, at
 * the edges of each type; a value outside its type is refused rather than encoded.
 */
import BN from "bn.js";
import { BorshCoder, type Idl } from "@coral-xyz/anchor";
import { Keypair } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import recorded from "../../../src/launch/idl/upgrade-2026-10.json" with { type: "json" };
import {
  buildUpgradeInstruction,
  recordedInstructions,
  type UpgradeArgs,
  type UpgradeProgram,
} from "../../../src/launch/upgrade-idl.js";

const U64_MAX = (1n << 64n) - 1n;
const programs = recorded as unknown as Record<
  UpgradeProgram,
  { events?: unknown[] } & Record<string, unknown>
>;
const coder = (p: UpgradeProgram) =>
  new BorshCoder({ ...programs[p], accounts: [], events: programs[p].events ?? [] } as unknown as Idl);

/** Every recorded account of `name` given a fresh key (fixed ones too: the data is what is compared). */
const accountsOf = (p: UpgradeProgram, name: string) =>
  Object.fromEntries(
    recordedInstructions(p)
      .find((i) => i.name === name)!
      .accounts.map((a) => [a.name, Keypair.generate().publicKey]),
  );

describe("buildUpgradeInstruction's data", () => {
  for (const p of ["launch", "launchswap"] as const) {
    for (const ix of recordedInstructions(p)) {
      it(`${p} ${ix.name}: the bytes of Anchor's coder`, () => {
        for (const [u64, flag] of [
          [0n, false],
          [1n, true],
          [123_456_789_012n, false],
          [U64_MAX, true],
        ] as const) {
          const args: Record<string, bigint | boolean> = {};
          for (const a of ix.args) args[a.name] = a.type === "u64" ? u64 : flag;
          const ours = buildUpgradeInstruction(p, ix.name, accountsOf(p, ix.name), args).data;
          const theirs = coder(p).instruction.encode(
            ix.name,
            Object.fromEntries(
              Object.entries(args).map(([k, v]) => [
                k,
                typeof v === "bigint" ? new BN(v.toString()) : { 0: v },
              ]),
            ),
          );
          expect(Buffer.from(ours).toString("hex")).toBe(Buffer.from(theirs).toString("hex"));
        }
      });
    }
  }

  it("refuses a u64 out of range or of the wrong type, and a bool that is not one", () => {
    const accounts = accountsOf("launch", "buy_v3");
    const build = (args: UpgradeArgs) => () => buildUpgradeInstruction("launch", "buy_v3", accounts, args);
    const ok = { amount: 1n, max_sol_cost: 2n, partial_fill: false };
    expect(build(ok)).not.toThrow();
    expect(build({ ...ok, amount: -1n })).toThrow("buy_v3: argument amount is not a u64");
    expect(build({ ...ok, amount: U64_MAX + 1n })).toThrow("buy_v3: argument amount is not a u64");
    expect(build({ ...ok, max_sol_cost: true })).toThrow("buy_v3: argument max_sol_cost is not a u64");
    expect(build({ ...ok, partial_fill: 1n })).toThrow("buy_v3: argument partial_fill is not a bool");
  });
});
