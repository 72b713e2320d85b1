import { describe, it, expect } from "vitest";
import { createLedger } from "../../localnet/ledger/index.js";
import {
  createLaunchProgram,
  installLaunchGenesis,
  readCurve,
  createToken,
  completeCurve,
} from "../../localnet/programs/launch/index.js";

describe("smoke", () => {
  it("creates a token and completes it", () => {
    const ledger = createLedger({ programs: [createLaunchProgram({ cashbackCreation: false })] });
    installLaunchGenesis(ledger, { cashbackCreation: false });
    const { mint } = createToken(ledger, {});
    const c = readCurve(ledger, mint);
    expect(c?.realTokenReserves).toBe(793_100_000_000_000n);
    completeCurve(ledger, mint);
    expect(readCurve(ledger, mint)?.complete).toBe(true);
  });
});
