/**
 * The emulated bonding-curve program driven only by transactions the official SDK builds, signed and
 * processed like client transactions: balances must match the SDK's own quotes to the unit.
 */
import { describe, it, expect } from "vitest";
import BN from "bn.js";
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../src/launch/sdk.js";
import { lamports } from "./ledger-views.js";
import {
  BUYBACK_FEE_RECIPIENTS,
  FEE_RECIPIENTS,
  RESERVED_FEE_RECIPIENTS,
  completeCurve,
  createToken,
  curveAddress,
  readCurve,
} from "../../localnet/programs/launch/index.js";
import {
  ata,
  bn,
  coinHolderOn,
  coinWithHolder,
  expectCustom,
  funded,
  newLedger,
  send,
  tokenBalance,
} from "./launch-fixture.js";

const { PUMP_SDK } = launchSdk;

describe("rejected account lists", () => {
  it("wrong PDA → 2006, missing signer → 3010, SPL token program for a Token-2022 mint → IncorrectProgramId", async () => {
    const ledger = newLedger();
    const { mint, creator } = createToken(ledger, {});
    const { user } = await coinHolderOn(ledger, mint);
    const base = {
      user: user.publicKey,
      mint,
      creator,
      amount: new BN(1_000_000),
      solAmount: new BN(1_000_000_000),
      feeRecipient: FEE_RECIPIENTS[0]!,
      buybackFeeRecipient: BUYBACK_FEE_RECIPIENTS[0]!,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    };

    const wrongVault = await PUMP_SDK.getBuyInstructionRaw({ ...base, creator: PublicKey.unique() });
    let rec = send(ledger, user, [wrongVault]);
    expectCustom(rec, 0, 2006);
    expect(rec.logs.join("\n")).toContain("ConstraintSeeds");
    expect(rec.logs.join("\n")).toContain("creator_vault");

    const unsigned = await PUMP_SDK.getBuyInstructionRaw(base);
    unsigned.keys[6] = { ...unsigned.keys[6]!, isSigner: false };
    const payer = funded(ledger, 1n);
    rec = send(ledger, payer, [unsigned]);
    expectCustom(rec, 0, 3010);
    expect(rec.logs.join("\n")).toContain("AccountNotSigner");

    const splProgram = await PUMP_SDK.getBuyInstructionRaw({ ...base, tokenProgram: TOKEN_PROGRAM_ID });
    rec = send(ledger, user, [splProgram]);
    expect(rec.err).toEqual({ InstructionError: [0, "IncorrectProgramId"] });

    const badBuyback = await PUMP_SDK.getBuyInstructionRaw({
      ...base,
      buybackFeeRecipient: PublicKey.unique(),
    });
    expectCustom(send(ledger, user, [badBuyback]), 0, 6057);
    const mayhemRecipient = await PUMP_SDK.getBuyInstructionRaw({
      ...base,
      feeRecipient: RESERVED_FEE_RECIPIENTS[0]!,
    });
    expectCustom(send(ledger, user, [mayhemRecipient]), 0, 6000);
  });
});

describe("completion", () => {
  it("completeCurve buys out the real reserves; every later trade fails with 6005", async () => {
    const ledger = newLedger();
    const { mint, creator, user, tokens } = await coinWithHolder(ledger);
    completeCurve(ledger, mint);
    const curve = readCurve(ledger, mint)!;
    expect(curve.complete).toBe(true);
    expect(curve.realTokenReserves).toBe(0n);
    expect(tokenBalance(ledger, ata(mint, curveAddress(mint)))).toBe(
      1_000_000_000_000_000n - 793_100_000_000_000n,
    );
    expect(lamports(ledger, curveAddress(mint))).toBe(
      ledger.rentExemptMinimum(151) + curve.realQuoteReserves,
    );
    const base = {
      user: user.publicKey,
      mint,
      creator,
      feeRecipient: FEE_RECIPIENTS[0]!,
      buybackFeeRecipient: BUYBACK_FEE_RECIPIENTS[0]!,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    };
    const buy = await PUMP_SDK.getBuyInstructionRaw({
      ...base,
      amount: new BN(1),
      solAmount: new BN(1_000_000_000),
    });
    expectCustom(send(ledger, user, [buy]), 0, 6005);
    const sell = await PUMP_SDK.getSellInstructionRaw({ ...base, amount: bn(tokens), solAmount: new BN(0) });
    expectCustom(send(ledger, user, [sell]), 0, 6005);
  });
});
