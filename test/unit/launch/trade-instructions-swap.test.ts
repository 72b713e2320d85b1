import { describe, expect, it } from "vitest";
import type { PublicKey } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { associatedTokenAddress, poolAuthorityAddress } from "../../../src/launch/programs.js";
import type { PoolState, SwapGlobalConfig } from "../../../src/launch/state.js";
import { buildSwapBuy, buildSwapSell } from "../../../src/launch/trade-instructions.js";
import { buildSwapState } from "../../../src/launch/swap-state.js";
import type { SwapTradeRead } from "../../../src/launch/trade-accounts.js";
import { key } from "../../helpers/fixtures.js";
import {
  ATA_CREATE_T22,
  BUYBACK,
  FEE,
  Z,
  creator,
  mint,
  pool,
  show,
  u64,
  user,
  vaults,
} from "./trade-instructions-names.js";

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
