import { describe, expect, it } from "vitest";
import BN from "bn.js";
import { PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { launchSdk, launchSwapSdk } from "../../../src/launch/sdk.js";
import {
  associatedTokenAddress,
  bondingCurveAddress,
  bondingCurveV2Address,
  canonicalPoolAddress,
  creatorVaultAddress,
  launchUserVolumeAccumulator,
  poolAuthorityAddress,
  poolV2Address,
  poolVaultAddresses,
  swapCashbackWsolAccount,
  swapCreatorVaultAuthority,
  swapUserVolumeAccumulator,
} from "../../../src/launch/programs.js";
import type { LaunchGlobal, PoolState, SwapGlobalConfig } from "../../../src/launch/state.js";
import {
  buildCurveBuy,
  buildCurveBuyExactSolIn,
  buildCurveSell,
  buildSwapBuy,
  buildSwapSell,
} from "../../../src/launch/trade-instructions.js";
import { buildSwapState } from "../../../src/launch/swap-state.js";
import type { SwapTradeRead } from "../../../src/launch/trade-accounts.js";
import { key } from "../../helpers/fixtures.js";

const Z = PublicKey.default;
const user = key(1);
const creator = key(2);
const mint = key(3);
const FEE = new PublicKey("62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV");
const RESERVED = key(5);
const BUYBACK = new PublicKey("5YxQFdt3Tr9zJLvkFccqXVUwhdTWJQc1fFg2YPbxvxeD");
const first = () => 0;

// Names as in the reference's build_ixs.out, so expected lists read like that file.
const names = new Map<string, string>();
const name = (k: PublicKey, n: string) => names.set(k.toBase58(), n);
name(user, "USER");
name(creator, "CREATOR");
name(mint, "MINT");
name(FEE, "FEE_RECIPIENT");
name(RESERVED, "RESERVED_FEE_RECIPIENT");
name(BUYBACK, "BUYBACK_RECIPIENT");
name(TOKEN_PROGRAM_ID, "TOKEN_PROGRAM");
name(TOKEN_2022_PROGRAM_ID, "TOKEN_2022");
name(NATIVE_MINT, "WSOL_MINT");
name(ASSOCIATED_TOKEN_PROGRAM_ID, "ATA_PROGRAM");
name(SystemProgram.programId, "SYSTEM");
name(launchSdk.PUMP_PROGRAM_ID, "PUMP_PROGRAM");
name(launchSdk.PUMP_AMM_PROGRAM_ID, "AMM_PROGRAM");
name(launchSdk.PUMP_FEE_PROGRAM_ID, "FEE_PROGRAM");
name(launchSdk.GLOBAL_PDA, "pump global PDA");
name(launchSdk.PUMP_EVENT_AUTHORITY_PDA, "pump event_authority");
name(launchSdk.GLOBAL_VOLUME_ACCUMULATOR_PDA, "pump global_volume_accumulator");
name(launchSdk.PUMP_FEE_CONFIG_PDA, "pump fee_config");
name(launchSwapSdk.GLOBAL_CONFIG_PDA, "amm global_config");
name(launchSwapSdk.PUMP_AMM_EVENT_AUTHORITY_PDA, "amm event_authority");
name(launchSwapSdk.GLOBAL_VOLUME_ACCUMULATOR_PDA, "amm global_volume_accumulator");
name(launchSwapSdk.PUMP_AMM_FEE_CONFIG_PDA, "amm fee_config");
name(bondingCurveAddress(mint), "bonding_curve PDA");
name(bondingCurveV2Address(mint), "bonding_curve_v2 PDA");
name(
  associatedTokenAddress(bondingCurveAddress(mint), mint, TOKEN_2022_PROGRAM_ID),
  "ATA(bonding_curve, MINT, T22)",
);
name(associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID), "ATA(USER, MINT, T22)");
name(associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID), "ATA(USER, WSOL, SPL)");
name(creatorVaultAddress(creator), "creator_vault PDA");
name(launchUserVolumeAccumulator(user), "pump user_volume_accumulator PDA");
name(swapUserVolumeAccumulator(user), "amm user_volume_accumulator PDA");
name(swapCashbackWsolAccount(user), "ATA(amm UVA, WSOL)");
const pool = canonicalPoolAddress(mint);
name(pool, "canonical pool PDA");
name(poolV2Address(mint), "pool_v2 PDA");
const vaults = poolVaultAddresses(pool, mint, TOKEN_2022_PROGRAM_ID);
name(vaults.base, "pool base ATA (T22)");
name(vaults.quote, "pool quote WSOL ATA");
name(associatedTokenAddress(FEE, NATIVE_MINT, TOKEN_PROGRAM_ID), "ATA(FEE_RECIPIENT, WSOL)");
name(associatedTokenAddress(BUYBACK, NATIVE_MINT, TOKEN_PROGRAM_ID), "ATA(BUYBACK_RECIPIENT, WSOL)");
const ccva = swapCreatorVaultAuthority(creator);
name(ccva, "coin_creator_vault_authority");
name(associatedTokenAddress(ccva, NATIVE_MINT, TOKEN_PROGRAM_ID), "coin_creator_vault_ata (WSOL)");
name(swapCreatorVaultAuthority(Z), "coin_creator_vault_authority(default)");
name(
  associatedTokenAddress(swapCreatorVaultAuthority(Z), NATIVE_MINT, TOKEN_PROGRAM_ID),
  "coin_creator_vault_ata(default, WSOL)",
);

/** One instruction as "program: [flags name, ...]" lines, flags S/W like build_ixs.out. */
function show(ix: TransactionInstruction): { program: string; data: string; keys: string[] } {
  return {
    program: names.get(ix.programId.toBase58()) ?? ix.programId.toBase58(),
    data: Buffer.from(ix.data).toString("hex"),
    keys: ix.keys.map(
      (k) =>
        `${k.isSigner ? "S" : "-"}${k.isWritable ? "W" : "-"} ${names.get(k.pubkey.toBase58()) ?? k.pubkey.toBase58()}`,
    ),
  };
}

const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b.toString("hex");
};

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

const ATA_CREATE_T22 = [
  "SW USER",
  "-W ATA(USER, MINT, T22)",
  "-- USER",
  "-- MINT",
  "-- SYSTEM",
  "-- TOKEN_2022",
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

describe("swap builders", () => {
  const globalConfig = {
    admin: key(20),
    lpFeeBasisPoints: 20n,
    protocolFeeBasisPoints: 5n,
    disableFlags: 0,
    protocolFeeRecipients: [FEE],
    coinCreatorFeeBasisPoints: 5n,
    adminSetCoinCreatorAuthority: key(21),
    whitelistPda: Z,
    reservedFeeRecipient: FEE,
    mayhemModeEnabled: true,
    reservedFeeRecipients: [FEE],
    isCashbackEnabled: true,
    buybackFeeRecipients: [BUYBACK],
    buybackBasisPoints: 5000n,
    boostAuthority: Z,
    boostEnabled: false,
    creatorFeeConfigurable: false,
    maxConfigurableCreatorFeeBps: 0n,
  } satisfies SwapGlobalConfig;

  function read(opts: { cashback: boolean; coinCreator: PublicKey; atasExist: boolean; poolLength: number }) {
    const state: PoolState = {
      poolBump: 255,
      index: 0,
      creator: poolAuthorityAddress(mint),
      baseMint: mint,
      quoteMint: NATIVE_MINT,
      lpMint: key(22),
      poolBaseTokenAccount: vaults.base,
      poolQuoteTokenAccount: vaults.quote,
      lpSupply: 1n,
      coinCreator: opts.coinCreator,
      isMayhemMode: false,
      isCashbackCoin: opts.cashback,
      virtualQuoteReserves: 0n,
      creatorFeeBps: 0n,
      canEditCreatorFee: false,
    };
    const r: SwapTradeRead = {
      venue: "launchswap",
      mint,
      user,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      mintSupply: 1_000_000_000_000_000n,
      decimals: 6,
      userTokenAccount: associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID),
      userAtaExists: opts.atasExist,
      userTokenBalance: 0n,
      userWsolAccount: associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID),
      userWsolExists: opts.atasExist,
      poolAddress: pool,
      pool: state,
      poolDataLength: opts.poolLength,
      poolReserves: { base: 206_900_000_000_000n, quote: 84_990_359_561n },
      curve: null,
    };
    return buildSwapState(r, globalConfig, null);
  }

  const SWAP_FIXED = [
    "-W canonical pool PDA",
    "SW USER",
    "-- amm global_config",
    "-- MINT",
    "-- WSOL_MINT",
    "-W ATA(USER, MINT, T22)",
    "-W ATA(USER, WSOL, SPL)",
    "-W pool base ATA (T22)",
    "-W pool quote WSOL ATA",
    "-- FEE_RECIPIENT",
    "-W ATA(FEE_RECIPIENT, WSOL)",
    "-- TOKEN_2022",
    "-- TOKEN_PROGRAM",
    "-- SYSTEM",
    "-- ATA_PROGRAM",
    "-- amm event_authority",
    "-- AMM_PROGRAM",
  ];
  const ATA_CREATE_WSOL = [
    "SW USER",
    "-W ATA(USER, WSOL, SPL)",
    "-- USER",
    "-- WSOL_MINT",
    "-- SYSTEM",
    "-- TOKEN_PROGRAM",
  ];
  const CLOSE_WSOL = ["-W ATA(USER, WSOL, SPL)", "-W USER", "S- USER"];

  it("buy wraps the max quote, creates missing ATAs and unwraps afterwards (reference list)", async () => {
    const ixs = (
      await buildSwapBuy({
        swapState: read({ cashback: false, coinCreator: creator, atasExist: false, poolLength: 300 }),
        baseOut: 1000n,
        maxQuoteIn: 2000n,
      })
    ).map(show);
    expect(ixs.map((i) => i.program)).toEqual([
      "ATA_PROGRAM",
      "SYSTEM",
      "TOKEN_PROGRAM",
      "ATA_PROGRAM",
      "AMM_PROGRAM",
      "TOKEN_PROGRAM",
    ]);
    expect(ixs[0]?.keys).toEqual(ATA_CREATE_WSOL);
    expect(ixs[1]).toEqual({
      program: "SYSTEM",
      data: "02000000d007000000000000",
      keys: ["SW USER", "-W ATA(USER, WSOL, SPL)"],
    });
    expect(ixs[3]?.keys).toEqual(ATA_CREATE_T22);
    expect(ixs[4]).toEqual({
      program: "AMM_PROGRAM",
      data: `66063d1201daebea${u64(1000n)}${u64(2000n)}01`,
      keys: [
        ...SWAP_FIXED,
        "-W coin_creator_vault_ata (WSOL)",
        "-- coin_creator_vault_authority",
        "-- amm global_volume_accumulator",
        "-W amm user_volume_accumulator PDA",
        "-- amm fee_config",
        "-- FEE_PROGRAM",
        "-- pool_v2 PDA",
        "-- BUYBACK_RECIPIENT",
        "-W ATA(BUYBACK_RECIPIENT, WSOL)",
      ],
    });
    expect(ixs[5]?.keys).toEqual(CLOSE_WSOL);
  });

  it("buy of a cashback coin on a short pool: extend_account first, 27 accounts", async () => {
    const ixs = (
      await buildSwapBuy({
        swapState: read({ cashback: true, coinCreator: creator, atasExist: true, poolLength: 261 }),
        baseOut: 1000n,
        maxQuoteIn: 2000n,
      })
    ).map(show);
    expect(ixs.map((i) => i.program)).toEqual([
      "AMM_PROGRAM",
      "SYSTEM",
      "TOKEN_PROGRAM",
      "AMM_PROGRAM",
      "TOKEN_PROGRAM",
    ]);
    expect(ixs[0]?.data).toBe("ea66c2cb96483ee5");
    expect(ixs[3]?.keys).toHaveLength(27);
    expect(ixs[3]?.keys[23]).toBe("-W ATA(amm UVA, WSOL)");
  });

  it("sell without coin creator: 23 accounts, WSOL ATA created and closed", async () => {
    const ixs = (
      await buildSwapSell({
        swapState: read({ cashback: false, coinCreator: Z, atasExist: false, poolLength: 300 }),
        baseIn: 1000n,
        minQuoteOut: 2000n,
      })
    ).map(show);
    expect(ixs.map((i) => i.program)).toEqual(["ATA_PROGRAM", "AMM_PROGRAM", "TOKEN_PROGRAM"]);
    expect(ixs[1]).toEqual({
      program: "AMM_PROGRAM",
      data: `33e685a4017f83ad${u64(1000n)}${u64(2000n)}`,
      keys: [
        ...SWAP_FIXED,
        "-W coin_creator_vault_ata(default, WSOL)",
        "-- coin_creator_vault_authority(default)",
        "-- amm fee_config",
        "-- FEE_PROGRAM",
        "-- BUYBACK_RECIPIENT",
        "-W ATA(BUYBACK_RECIPIENT, WSOL)",
      ],
    });
  });

  it("sell of a cashback coin adds the accumulator's WSOL ATA and the accumulator", async () => {
    const ixs = (
      await buildSwapSell({
        swapState: read({ cashback: true, coinCreator: creator, atasExist: true, poolLength: 300 }),
        baseIn: 1000n,
        minQuoteOut: 2000n,
      })
    ).map(show);
    expect(ixs.map((i) => i.program)).toEqual(["AMM_PROGRAM", "TOKEN_PROGRAM"]);
    expect(ixs[0]?.keys.slice(17)).toEqual([
      "-W coin_creator_vault_ata (WSOL)",
      "-- coin_creator_vault_authority",
      "-- amm fee_config",
      "-- FEE_PROGRAM",
      "-W ATA(amm UVA, WSOL)",
      "-W amm user_volume_accumulator PDA",
      "-- pool_v2 PDA",
      "-- BUYBACK_RECIPIENT",
      "-W ATA(BUYBACK_RECIPIENT, WSOL)",
    ]);
  });
});
