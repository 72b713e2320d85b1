/**
 * The October 2026 instructions against the layouts the program authors' docs state
 * (docs/instructions/TRADE_V3.md, PUMP_SWAP_TRADE_V2.md, SWEEP_FEES.md): account order and flags written
 * out here from those tables, discriminators recomputed from Anchor's rule, data byte by byte.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { launchSdk, launchSwapSdk } from "../../../src/launch/sdk.js";
import type { LaunchGlobal, PoolState, SwapGlobalConfig } from "../../../src/launch/state.js";
import {
  associatedTokenAddress,
  bondingCurveAddress,
  creatorVaultAddress,
  launchUserVolumeAccumulator,
  swapCreatorVaultAuthority,
  swapUserVolumeAccumulator,
} from "../../../src/launch/programs.js";
import {
  buildCurveBuyExactQuoteInV3,
  buildCurveBuyV3,
  buildCurveSellV3,
  buildCurveSweepCreatorFee,
  buildCurveSweepProtocolFee,
} from "../../../src/launch/v3-instructions.js";
import {
  buildSwapBuyExactQuoteInV2,
  buildSwapBuyV2,
  buildSwapSellV2,
  buildSwapSweepCreatorFee,
  buildSwapSweepProtocolFee,
} from "../../../src/launch/swap-v2-instructions.js";
import { recordedInstructions } from "../../../src/launch/upgrade-idl.js";
import { key } from "../../helpers/fixtures.js";

const Z = PublicKey.default;
const user = key(1);
const creator = key(2);
const mint = key(3);
const FEE = key(4);
const BUYBACK = key(6);
const poolAddress = key(7);
const poolBase = key(8);
const poolQuote = key(9);
const global = {
  feeRecipient: FEE,
  feeRecipients: Array<PublicKey>(7).fill(Z),
  reservedFeeRecipient: key(5),
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [BUYBACK, ...Array<PublicKey>(7).fill(Z)],
} as unknown as LaunchGlobal;
const globalConfig = {
  protocolFeeRecipients: [FEE, ...Array<PublicKey>(7).fill(Z)],
  reservedFeeRecipient: key(5),
  reservedFeeRecipients: Array<PublicKey>(7).fill(Z),
  buybackFeeRecipients: [BUYBACK, ...Array<PublicKey>(7).fill(Z)],
} as unknown as SwapGlobalConfig;
const pool = {
  baseMint: mint,
  quoteMint: NATIVE_MINT,
  poolBaseTokenAccount: poolBase,
  poolQuoteTokenAccount: poolQuote,
  coinCreator: creator,
  isMayhemMode: false,
} as unknown as PoolState;

const disc = (name: string) =>
  createHash("sha256").update(`global:${name}`).digest().subarray(0, 8).toString("hex");
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b.toString("hex");
};
type Meta = [PublicKey, "S" | "W" | "-"];
const flags = (ix: TransactionInstruction) =>
  ix.keys.map((k) => `${k.isSigner ? "S" : k.isWritable ? "W" : "-"} ${k.pubkey.toBase58()}`);
const expected = (metas: Meta[]) => metas.map(([k, f]) => `${f} ${k.toBase58()}`);

const PUMP = launchSdk.PUMP_PROGRAM_ID;
const AMM = launchSwapSdk.PUMP_AMM_PROGRAM_ID;
const curve = bondingCurveAddress(mint);
// TRADE_V3.md "Accounts": the same 17 for all three instructions.
const V3: Meta[] = [
  [launchSdk.GLOBAL_PDA, "-"],
  [mint, "-"],
  [NATIVE_MINT, "-"],
  [TOKEN_2022_PROGRAM_ID, "-"],
  [TOKEN_PROGRAM_ID, "-"],
  [curve, "W"],
  [associatedTokenAddress(curve, mint, TOKEN_2022_PROGRAM_ID), "W"],
  [associatedTokenAddress(curve, NATIVE_MINT, TOKEN_PROGRAM_ID), "W"],
  [user, "S"],
  [associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID), "W"],
  [associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID), "W"],
  [launchUserVolumeAccumulator(user), "W"],
  [new PublicKey("8Wf5TiAheLUqBrKXeYg2JtAFFMWtKdG2BSFgqUcPVwTt"), "-"],
  [BUYBACK, "W"],
  [SystemProgram.programId, "-"],
  [launchSdk.PUMP_EVENT_AUTHORITY_PDA, "-"],
  [PUMP, "-"],
];
const v3 = { global, mint, user, tokenProgram: TOKEN_2022_PROGRAM_ID, random: () => 0 };

describe("curve v3 trades (TRADE_V3.md)", () => {
  it("buy_v3: 17 accounts; amount, max_sol_cost, partial_fill [false]", () => {
    const [ix] = buildCurveBuyV3({ ...v3, amount: 5_000n, maxSolCost: 77n, createAta: false });
    expect(ix!.programId.equals(PUMP)).toBe(true);
    expect(flags(ix!)).toEqual(expected(V3));
    expect(ix!.data.toString("hex")).toBe(disc("buy_v3") + u64(5_000n) + u64(77n) + "00");
    expect(disc("buy_v3")).toBe(Buffer.from([7, 5, 29, 196, 245, 23, 101, 80]).toString("hex"));
  });

  it("buy_exact_quote_in_v3: spendable_quote_in, min_tokens_out, partial_fill; an ATA create first when asked", () => {
    const ixs = buildCurveBuyExactQuoteInV3({
      ...v3,
      spendable: 10n ** 9n,
      minTokensOut: 123n,
      createAta: true,
    });
    expect(ixs).toHaveLength(2);
    expect(ixs[0]!.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)).toBe(true);
    expect(ixs[0]!.data.toString("hex")).toBe("01"); // CreateIdempotent: v3 never creates the buyer's account
    expect(flags(ixs[1]!)).toEqual(expected(V3));
    expect(ixs[1]!.data.toString("hex")).toBe(
      disc("buy_exact_quote_in_v3") + u64(10n ** 9n) + u64(123n) + "00",
    );
  });

  it("sell_v3: amount, min_sol_output and nothing else", () => {
    const [ix] = buildCurveSellV3({ ...v3, amount: 9n, minSolOutput: 8n });
    expect(flags(ix!)).toEqual(expected(V3));
    expect(ix!.data.toString("hex")).toBe(disc("sell_v3") + u64(9n) + u64(8n));
  });
});

describe("curve sweeps (SWEEP_FEES.md: 13 accounts, no data)", () => {
  const sweep = (recipient: PublicKey): Meta[] => [
    [user, "S"],
    [launchSdk.GLOBAL_PDA, "-"],
    [mint, "-"],
    [NATIVE_MINT, "-"],
    [TOKEN_PROGRAM_ID, "-"],
    [ASSOCIATED_TOKEN_PROGRAM_ID, "-"],
    [SystemProgram.programId, "-"],
    [curve, "W"],
    [associatedTokenAddress(curve, NATIVE_MINT, TOKEN_PROGRAM_ID), "W"],
    [recipient, "W"],
    [associatedTokenAddress(recipient, NATIVE_MINT, TOKEN_PROGRAM_ID), "W"],
    [launchSdk.PUMP_EVENT_AUTHORITY_PDA, "-"],
    [PUMP, "-"],
  ];
  it("sweep_creator_fee pays the creator vault of the curve's creator", () => {
    const ix = buildCurveSweepCreatorFee({ payer: user, mint, creator });
    expect(flags(ix)).toEqual(expected(sweep(creatorVaultAddress(creator))));
    expect(ix.data.toString("hex")).toBe(disc("sweep_creator_fee"));
  });
  it("sweep_protocol_fee pays a Global fee recipient", () => {
    const ix = buildCurveSweepProtocolFee({ payer: user, mint, global, mayhem: false, random: () => 0 });
    expect(flags(ix)).toEqual(expected(sweep(FEE)));
    expect(ix.data.toString("hex")).toBe(disc("sweep_protocol_fee"));
  });
});

// PUMP_SWAP_TRADE_V2.md "Accounts": the same 17 for the three trades.
const V2: Meta[] = [
  [poolAddress, "W"],
  [user, "S"],
  [launchSwapSdk.GLOBAL_CONFIG_PDA, "-"],
  [mint, "-"],
  [NATIVE_MINT, "-"],
  [associatedTokenAddress(user, mint, TOKEN_2022_PROGRAM_ID), "W"],
  [associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID), "W"],
  [poolBase, "W"],
  [poolQuote, "W"],
  [TOKEN_2022_PROGRAM_ID, "-"],
  [TOKEN_PROGRAM_ID, "-"],
  [SystemProgram.programId, "-"],
  [swapUserVolumeAccumulator(user), "W"],
  [new PublicKey("5PHirr8joyTMp9JMm6nW7hNDVyEYdkzDqazxPD7RaTjx"), "-"],
  [associatedTokenAddress(BUYBACK, NATIVE_MINT, TOKEN_PROGRAM_ID), "W"],
  [launchSwapSdk.PUMP_AMM_EVENT_AUTHORITY_PDA, "-"],
  [AMM, "-"],
];
const v2 = { globalConfig, poolAddress, pool, user, tokenProgram: TOKEN_2022_PROGRAM_ID, random: () => 0 };
const tradeOf = (ixs: TransactionInstruction[]) => ixs.find((i) => i.programId.equals(AMM))!;

describe("launchswap v2 trades (PUMP_SWAP_TRADE_V2.md)", () => {
  it("buy_v2: base_amount_out, max_quote_amount_in; WSOL wrapped before and closed after", () => {
    const ixs = buildSwapBuyV2({ ...v2, baseOut: 1_000n, maxQuoteIn: 2_000n });
    expect(ixs.map((i) => i.programId.toBase58())).toEqual([
      ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
      SystemProgram.programId.toBase58(),
      TOKEN_PROGRAM_ID.toBase58(),
      ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
      AMM.toBase58(),
      TOKEN_PROGRAM_ID.toBase58(),
    ]);
    expect(flags(tradeOf(ixs))).toEqual(expected(V2));
    expect(tradeOf(ixs).data.toString("hex")).toBe(disc("buy_v2") + u64(1_000n) + u64(2_000n));
  });
  it("buy_exact_quote_in_v2: spendable_quote_in, min_base_amount_out", () => {
    const ixs = buildSwapBuyExactQuoteInV2({ ...v2, spendable: 5n, minBaseOut: 4n });
    expect(flags(tradeOf(ixs))).toEqual(expected(V2));
    expect(tradeOf(ixs).data.toString("hex")).toBe(disc("buy_exact_quote_in_v2") + u64(5n) + u64(4n));
  });
  it("sell_v2: base_amount_in, min_quote_amount_out; nothing wrapped", () => {
    const ixs = buildSwapSellV2({ ...v2, baseIn: 3n, minQuoteOut: 2n });
    expect(ixs.some((i) => i.programId.equals(SystemProgram.programId))).toBe(false);
    expect(flags(tradeOf(ixs))).toEqual(expected(V2));
    expect(tradeOf(ixs).data.toString("hex")).toBe(disc("sell_v2") + u64(3n) + u64(2n));
  });
});

describe("pool sweeps (SWEEP_FEES.md: 12 accounts, no data)", () => {
  const sweep = (recipient: PublicKey): Meta[] => [
    [user, "S"],
    [launchSwapSdk.GLOBAL_CONFIG_PDA, "-"],
    [poolAddress, "W"],
    [NATIVE_MINT, "-"],
    [TOKEN_PROGRAM_ID, "-"],
    [poolQuote, "W"],
    [recipient, "-"],
    [associatedTokenAddress(recipient, NATIVE_MINT, TOKEN_PROGRAM_ID), "W"],
    [SystemProgram.programId, "-"],
    [ASSOCIATED_TOKEN_PROGRAM_ID, "-"],
    [launchSwapSdk.PUMP_AMM_EVENT_AUTHORITY_PDA, "-"],
    [AMM, "-"],
  ];
  it("sweep_creator_fee pays the coin creator vault authority", () => {
    const ix = buildSwapSweepCreatorFee({ payer: user, poolAddress, pool });
    expect(flags(ix)).toEqual(expected(sweep(swapCreatorVaultAuthority(creator))));
    expect(ix.data.toString("hex")).toBe(disc("sweep_creator_fee"));
  });
  it("sweep_protocol_fee pays a protocol fee recipient", () => {
    const ix = buildSwapSweepProtocolFee({ payer: user, poolAddress, pool, globalConfig, random: () => 0 });
    expect(flags(ix)).toEqual(expected(sweep(FEE)));
  });
});

describe("the recorded IDL parts", () => {
  it("every discriminator is Anchor's sha256('global:<name>')", () => {
    for (const program of ["launch", "launchswap"] as const) {
      for (const ix of recordedInstructions(program)) {
        expect(Buffer.from(ix.discriminator).toString("hex"), `${program} ${ix.name}`).toBe(disc(ix.name));
      }
    }
  });
});
