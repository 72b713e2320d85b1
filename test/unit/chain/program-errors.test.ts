import { describe, it, expect } from "vitest";
import { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { assembleTransaction } from "../../../src/chain/tx-assembly.js";
import {
  customErrorOf,
  decodeProgramError,
  decodeProgramErrorFromLogs,
  logsExcerpt,
} from "../../../src/chain/program-errors.js";

const LAUNCH = new PublicKey("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P");
const SWAP = new PublicKey("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA");

function wireCalling(programId: PublicKey) {
  const payer = Keypair.generate();
  return assembleTransaction({
    payer,
    instructions: [new TransactionInstruction({ programId, keys: [], data: Buffer.from([0]) })],
    computeUnitLimit: 100_000,
    computeUnitPriceMicroLamports: 1n,
    blockhash: "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N",
  }).wire;
}

describe("program error decoding", () => {
  it("names the failing program from the runtime's failure line when only logs are at hand", () => {
    const logs = [
      `Program ComputeBudget111111111111111111111111111111 success`,
      `Program ${SWAP.toBase58()} invoke [1]`,
      `Program ${LAUNCH.toBase58()} invoke [1]`,
      "Program log: AnchorError occurred. Error Code: TooLittleSolReceived.",
      `Program ${LAUNCH.toBase58()} failed: custom program error: 0x1773`,
    ];
    const err = { InstructionError: [2, { Custom: 6003 }] };
    expect(decodeProgramErrorFromLogs(err, logs)).toMatchObject({
      program: "launch",
      code: 6003,
      name: "TooLittleSolReceived",
    });
    expect(decodeProgramErrorFromLogs(err, null)).toMatchObject({
      program: "unknown",
      code: 6003,
      name: null,
    });
    expect(decodeProgramErrorFromLogs("AccountInUse", logs)).toBeNull();
  });

  it("names launch program errors from its IDL", () => {
    const p = decodeProgramError({ InstructionError: [2, { Custom: 6003 }] }, wireCalling(LAUNCH));
    expect(p).toMatchObject({
      program: "launch",
      code: 6003,
      name: "TooLittleSolReceived",
      instructionIndex: 2,
    });
  });

  it("names launchswap errors and Anchor framework errors", () => {
    const wire = wireCalling(SWAP);
    expect(decodeProgramError({ InstructionError: [2, { Custom: 6004 }] }, wire)).toMatchObject({
      program: "launchswap",
      name: "ExceededSlippage",
    });
    expect(decodeProgramError({ InstructionError: [2, { Custom: 2006 }] }, wire)?.name).toBe(
      "ConstraintSeeds",
    );
    expect(decodeProgramError({ InstructionError: [2, { Custom: 59999 }] }, wire)?.name).toBeNull();
  });

  it("reports the program id of other programs without guessing a name", () => {
    const other = Keypair.generate().publicKey;
    const p = decodeProgramError({ InstructionError: [2, { Custom: 6003 }] }, wireCalling(other));
    expect(p).toMatchObject({ program: other.toBase58(), name: null, code: 6003 });
  });

  it("returns null for non-custom errors", () => {
    const wire = wireCalling(LAUNCH);
    expect(decodeProgramError("BlockhashNotFound", wire)).toBeNull();
    expect(decodeProgramError({ InstructionError: [0, "GenericError"] }, wire)).toBeNull();
    expect(customErrorOf({ InsufficientFundsForRent: { account_index: 0 } })).toBeNull();
  });

  it("keeps a short, telling logs excerpt", () => {
    const logs = [
      ...Array.from({ length: 30 }, (_, i) => `Program X invoke [${i}]`),
      "Program log: Instruction: Buy",
      `Program log: ${"x".repeat(500)}`,
      "Program 6EF8 failed: custom program error: 0x1773",
    ];
    const ex = logsExcerpt(logs);
    expect(ex).toHaveLength(3);
    expect(ex[2]).toContain("failed");
    expect(ex.every((l) => l.length <= 200)).toBe(true);
    expect(logsExcerpt(Array.from({ length: 20 }, (_, i) => `line ${i}`))).toHaveLength(8);
    expect(logsExcerpt(null)).toEqual([]);
  });
});
