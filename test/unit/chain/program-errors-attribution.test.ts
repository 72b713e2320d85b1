/** Issue 22: an error is attributed to the program that raised it (a CPI's callee) and named from its table. */
import { describe, expect, it } from "vitest";
import {
  decodeProgramErrorFromLogs,
  describeTransactionError,
  programErrorBody,
} from "../../../src/chain/program-errors.js";

const LAUNCH = "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P";
const SYSTEM = "11111111111111111111111111111111";
const custom = (index: number, code: number) => ({ InstructionError: [index, { Custom: code }] });

describe("program error attribution", () => {
  it("blames the System program (not launch) for insufficient lamports inside a buy, in plain words", () => {
    const logs = [
      `Program ${LAUNCH} invoke [1]`,
      "Program log: Instruction: BuyExactSolIn",
      `Program ${SYSTEM} invoke [2]`,
      "Transfer: insufficient lamports 8900000000, need 9500000000",
      `Program ${SYSTEM} failed: custom program error: 0x1`,
      `Program ${LAUNCH} consumed 20000 of 250000 compute units`,
      `Program ${LAUNCH} failed: custom program error: 0x1`,
    ];
    const e = decodeProgramErrorFromLogs(custom(2, 1), logs)!;
    expect(programErrorBody(e)).toEqual({
      program: "system",
      code: 1,
      name: "ResultWithNegativeLamports",
      message: "insufficient SOL: the account has 8.900000000 SOL, this transfer needs 9.500000000 SOL",
    });
    expect(describeTransactionError(custom(2, 1), e)).toContain("insufficient SOL");
  });

  it("names launch, fee, token, token-2022 and associated-token errors from their tables", () => {
    const cases: [string, number, string, string][] = [
      [LAUNCH, 6021, "launch", "NotEnoughTokensToBuy"],
      ["pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ", 6000, "fee", "UnauthorizedProgram"],
      ["TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", 1, "token", "InsufficientFunds"],
      ["TokenzQdBNbLqP5VEhdkAS6EPFLC1PE9aD9AfenWHS6p", 17, "token-2022", "AccountFrozen"],
      ["ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL", 0, "associated token", "InvalidOwner"],
    ];
    for (const [id, code, program, name] of cases) {
      const e = decodeProgramErrorFromLogs(custom(3, code), [`Program ${id} failed: custom program error`]);
      expect(e).toMatchObject({ program, code, name, programId: id, instructionIndex: 3 });
    }
  });

  it("keeps the program id and a null name for a program it has no table for", () => {
    const other = "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo";
    expect(
      decodeProgramErrorFromLogs(custom(0, 7), [`Program ${other} failed: custom program error: 0x7`]),
    ).toMatchObject({
      program: other,
      name: null,
    });
  });
});
