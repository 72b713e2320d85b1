import { describe, expect, it } from "vitest";
import BN from "bn.js";
import type { PublicKey } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { launchSdk } from "../../../src/launch/sdk.js";
import type { LaunchGlobal } from "../../../src/launch/state.js";
import {
  buildCurveBuy,
  buildCurveBuyExactSolIn,
  buildCurveSell,
} from "../../../src/launch/trade-instructions.js";
import { key } from "../../helpers/fixtures.js";
import {
  ATA_CREATE_T22,
  BUYBACK,
  FEE,
  RESERVED,
  Z,
  creator,
  first,
  mint,
  show,
  u64,
  user,
} from "./trade-instructions-names.js";

const global = {
  feeRecipient: FEE,
  feeRecipients: [key(40), ...Array<PublicKey>(6).fill(Z)],
  reservedFeeRecipient: RESERVED,
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [BUYBACK, key(61), ...Array<PublicKey>(6).fill(Z)],
} as unknown as LaunchGlobal; // only the recipient lists matter to the builders

const CURVE_BUY_KEYS = [
  "-- pump global PDA",
  "-W FEE_RECIPIENT",
  "-- MINT",
  "-W bonding_curve PDA",
  "-W ATA(bonding_curve, MINT, T22)",
  "-W ATA(USER, MINT, T22)",
  "SW USER",
  "-- SYSTEM",
  "-- TOKEN_2022",
  "-W creator_vault PDA",
  "-- pump event_authority",
  "-- PUMP_PROGRAM",
  "-- pump global_volume_accumulator",
  "-W pump user_volume_accumulator PDA",
  "-- pump fee_config",
  "-- FEE_PROGRAM",
  "-- bonding_curve_v2 PDA",
  "-W BUYBACK_RECIPIENT",
];

const curveArgs = {
  global,
  curve: { creator, isMayhemMode: false },
  mint,
  user,
  tokenProgram: TOKEN_2022_PROGRAM_ID,
  random: first,
};

describe("curve buy builders", () => {
  it("buy_exact_sol_in has the SDK buy's 18 accounts and the documented data", async () => {
    const ixs = (
      await buildCurveBuyExactSolIn({
        ...curveArgs,
        spendableLamports: 1_000_000_000n,
        minTokensOut: 1n,
        createAta: true,
      })
    ).map(show);
    expect(ixs).toHaveLength(2);
    expect(ixs[0]).toEqual({ program: "ATA_PROGRAM", data: "01", keys: ATA_CREATE_T22 });
    expect(ixs[1]).toEqual({
      program: "PUMP_PROGRAM",
      data: "38fc74089edfcd5f00ca9a3b00000000010000000000000001",
      keys: CURVE_BUY_KEYS,
    });
  });

  it("buy_exact_sol_in lists exactly the accounts the SDK's own buy lists", async () => {
    const [ours] = await buildCurveBuyExactSolIn({
      ...curveArgs,
      spendableLamports: 5n,
      minTokensOut: 4n,
      createAta: false,
    });
    const sdk = await launchSdk.PUMP_SDK.getBuyInstructionRaw({
      user,
      mint,
      creator,
      amount: new BN(1),
      solAmount: new BN(2),
      feeRecipient: FEE,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      buybackFeeRecipient: BUYBACK,
    });
    expect(ours?.keys).toEqual(sdk.keys);
  });

  it("buy carries exact tokens and the max SOL cost, without ATA create when it exists", async () => {
    const ixs = (
      await buildCurveBuy({ ...curveArgs, amount: 1000n, maxSolCost: 2020n, createAta: false })
    ).map(show);
    expect(ixs).toEqual([
      { program: "PUMP_PROGRAM", data: `66063d1201daebea${u64(1000n)}${u64(2020n)}01`, keys: CURVE_BUY_KEYS },
    ]);
  });

  it("a mayhem curve pays the reserved fee recipient", async () => {
    const [ix] = await buildCurveBuy({
      ...curveArgs,
      curve: { creator, isMayhemMode: true },
      amount: 1n,
      maxSolCost: 2n,
      createAta: false,
    });
    expect(show(ix!).keys[1]).toBe("-W RESERVED_FEE_RECIPIENT");
  });

  it("fee and buyback recipients are drawn from every set entry of Global's lists", async () => {
    const seen = new Set<string>();
    for (const r of [0, 0.49, 0.51, 0.999]) {
      const [ix] = await buildCurveBuy({
        ...curveArgs,
        random: () => r,
        amount: 1n,
        maxSolCost: 2n,
        createAta: false,
      });
      const keys = show(ix!).keys;
      seen.add(`${keys[1]}|${keys[17]}`);
    }
    expect(seen).toEqual(
      new Set(["-W FEE_RECIPIENT|-W BUYBACK_RECIPIENT", `-W ${key(40).toBase58()}|-W ${key(61).toBase58()}`]),
    );
  });
});

describe("curve sell builder", () => {
  const SELL_KEYS = [
    "-- pump global PDA",
    "-W FEE_RECIPIENT",
    "-- MINT",
    "-W bonding_curve PDA",
    "-W ATA(bonding_curve, MINT, T22)",
    "-W ATA(USER, MINT, T22)",
    "SW USER",
    "-- SYSTEM",
    "-W creator_vault PDA",
    "-- TOKEN_2022",
    "-- pump event_authority",
    "-- PUMP_PROGRAM",
    "-- pump fee_config",
    "-- FEE_PROGRAM",
  ];

  it("sells with 16 accounts for a normal coin", async () => {
    const ixs = (
      await buildCurveSell({
        ...curveArgs,
        amount: 1000n,
        minSolOutput: 1980n,
        mayhem: false,
        cashback: false,
      })
    ).map(show);
    expect(ixs).toEqual([
      {
        program: "PUMP_PROGRAM",
        data: `33e685a4017f83ad${u64(1000n)}${u64(1980n)}`,
        keys: [...SELL_KEYS, "-- bonding_curve_v2 PDA", "-W BUYBACK_RECIPIENT"],
      },
    ]);
  });

  it("adds the user's volume accumulator first among the remaining accounts of a cashback coin", async () => {
    const [ix] = await buildCurveSell({
      ...curveArgs,
      amount: 1n,
      minSolOutput: 0n,
      mayhem: false,
      cashback: true,
    });
    expect(show(ix!).keys).toEqual([
      ...SELL_KEYS,
      "-W pump user_volume_accumulator PDA",
      "-- bonding_curve_v2 PDA",
      "-W BUYBACK_RECIPIENT",
    ]);
  });

  it("uses the curve's mayhem flag for the fee recipient", async () => {
    const [ix] = await buildCurveSell({
      ...curveArgs,
      amount: 1n,
      minSolOutput: 0n,
      mayhem: true,
      cashback: false,
    });
    expect(show(ix!).keys[1]).toBe("-W RESERVED_FEE_RECIPIENT");
  });
});
