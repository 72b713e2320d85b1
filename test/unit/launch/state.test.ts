import { describe, expect, it } from "vitest";
import fc from "fast-check";
import BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import { ACCOUNT_SIZE, NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { launchProgram, launchSwapProgram } from "../../../src/launch/programs-offline.js";
import {
  decodeBondingCurve,
  decodeLaunchFeeConfig,
  decodeLaunchGlobal,
  decodeMint,
  decodePool,
  decodeSwapFeeConfig,
  decodeSwapGlobalConfig,
  decodeTokenAccount,
  toBigints,
  toSdk,
} from "../../../src/launch/state.js";
import { key, mintData, tokenAccountData } from "../../helpers/fixtures.js";

const Z = PublicKey.default;

const fees = (lp: number, protocol: number, creator: number) => ({
  lpFeeBps: new BN(lp),
  protocolFeeBps: new BN(protocol),
  creatorFeeBps: new BN(creator),
});

const sdkFeeConfig = {
  bump: 255,
  admin: key(13),
  flatFees: fees(25, 5, 0),
  feeTiers: [
    { marketCapLamportsThreshold: new BN(0), fees: fees(2, 93, 30) },
    { marketCapLamportsThreshold: new BN("420000000000"), fees: fees(20, 5, 95) },
  ],
  stableFeeTiers: [{ marketCapLamportsThreshold: new BN(0), fees: fees(2, 93, 30) }],
  exoticFlatFees: fees(1, 2, 3),
};

// The program preallocates FeeConfig; its length selects the layout version the program reads.
function padded(bytes: Buffer, size: number): Buffer {
  return Buffer.concat([bytes, Buffer.alloc(Math.max(0, size - bytes.length))]);
}

describe("launch account decoders", () => {
  it("decodes Global at the documented offsets (C.2)", () => {
    // Anchor's coder encodes into 1000 bytes and Global is 1087, so the oracle is the documented layout.
    const bytes = Buffer.alloc(1087);
    Buffer.from([167, 232, 232, 177, 200, 108, 114, 127]).copy(bytes, 0);
    bytes[8] = 1;
    key(4).toBuffer().copy(bytes, 41);
    bytes.writeBigUInt64LE(1_073_000_000_000_000n, 73);
    bytes.writeBigUInt64LE(30_000_000_000n, 81);
    bytes.writeBigUInt64LE(793_100_000_000_000n, 89);
    bytes.writeBigUInt64LE(1_000_000_000_000_000n, 97);
    bytes.writeBigUInt64LE(95n, 105);
    bytes.writeBigUInt64LE(5n, 154);
    for (let i = 0; i < 7; i++)
      key(40 + i)
        .toBuffer()
        .copy(bytes, 162 + 32 * i);
    key(5).toBuffer().copy(bytes, 483);
    bytes[515] = 1;
    for (let i = 0; i < 7; i++)
      key(50 + i)
        .toBuffer()
        .copy(bytes, 516 + 32 * i);
    bytes[740] = 1;
    for (let i = 0; i < 8; i++)
      key(60 + i)
        .toBuffer()
        .copy(bytes, 741 + 32 * i);
    bytes.writeBigUInt64LE(5000n, 997);
    bytes.writeBigUInt64LE(300n, 1046);

    const g = decodeLaunchGlobal(bytes);
    expect(g.initialized).toBe(true);
    expect(g.feeBasisPoints).toBe(95n);
    expect(g.creatorFeeBasisPoints).toBe(5n);
    expect(g.initialVirtualTokenReserves).toBe(1_073_000_000_000_000n);
    expect(g.initialVirtualSolReserves).toBe(30_000_000_000n);
    expect(g.initialRealTokenReserves).toBe(793_100_000_000_000n);
    expect(g.tokenTotalSupply).toBe(1_000_000_000_000_000n);
    expect(g.buybackBasisPoints).toBe(5000n);
    expect(g.maxConfigurableCreatorFeeBps).toBe(300n);
    expect(g.feeRecipient).toEqual(key(4));
    expect(g.feeRecipients).toEqual(Array.from({ length: 7 }, (_, i) => key(40 + i)));
    expect(g.reservedFeeRecipient).toEqual(key(5));
    expect(g.reservedFeeRecipients).toEqual(Array.from({ length: 7 }, (_, i) => key(50 + i)));
    expect(g.buybackFeeRecipients).toEqual(Array.from({ length: 8 }, (_, i) => key(60 + i)));
    expect(g.mayhemModeEnabled).toBe(true);
    expect(g.isCashbackEnabled).toBe(true);
    // The live account predates the last fields (1045 bytes): they read as defaults.
    const short = decodeLaunchGlobal(bytes.subarray(0, 1045));
    expect(short.feeBasisPoints).toBe(95n);
    expect(short.maxConfigurableCreatorFeeBps).toBe(0n);
  });

  it("decodes the launch FeeConfig tiers by account length", async () => {
    const bytes = await launchProgram.coder.accounts.encode("feeConfig", sdkFeeConfig);
    const current = decodeLaunchFeeConfig(padded(bytes, 4097));
    expect(current.feeTiers).toEqual([
      { marketCapLamportsThreshold: 0n, fees: { lpFeeBps: 2n, protocolFeeBps: 93n, creatorFeeBps: 30n } },
      {
        marketCapLamportsThreshold: 420_000_000_000n,
        fees: { lpFeeBps: 20n, protocolFeeBps: 5n, creatorFeeBps: 95n },
      },
    ]);
    expect(current.exoticFlatFees.creatorFeeBps).toBe(3n);
    // A 2512-byte account has no stable tiers and no exotic fees, whatever bytes follow.
    const initial = decodeLaunchFeeConfig(padded(bytes, 2512));
    expect(initial.stableFeeTiers).toEqual([]);
    expect(initial.exoticFlatFees.protocolFeeBps).toBe(0n);
  });

  it("round-trips a bonding curve, including short historical layouts", async () => {
    const curve = {
      virtualTokenReserves: new BN("1073000000000000"),
      virtualQuoteReserves: new BN("30000000001"),
      realTokenReserves: new BN("793100000000000"),
      realQuoteReserves: new BN(1),
      tokenTotalSupply: new BN("1000000000000000"),
      complete: true,
      creator: key(2),
      isMayhemMode: true,
      isCashbackCoin: true,
      quoteMint: Z,
      creatorFeeBps: new BN(0),
      canEditCreatorFee: false,
      isHolderReward: false,
    };
    const bytes = await launchProgram.coder.accounts.encode("bondingCurve", curve);
    expect(decodeBondingCurve(padded(bytes, 151))).toEqual(toBigints(curve));
    const old = decodeBondingCurve(bytes.subarray(0, 81));
    expect(old.creator).toEqual(key(2));
    expect(old.isCashbackCoin).toBe(false);
    expect(() => decodeBondingCurve(bytes.subarray(0, 40))).toThrow();
    expect(() => decodeBondingCurve(Buffer.alloc(151))).toThrow();
  });

  it("round-trips a swap pool and accepts base64 RPC data", async () => {
    const pool = {
      poolBump: 254,
      index: 0,
      creator: key(20),
      baseMint: key(3),
      quoteMint: NATIVE_MINT,
      lpMint: key(21),
      poolBaseTokenAccount: key(22),
      poolQuoteTokenAccount: key(23),
      lpSupply: new BN(123),
      coinCreator: key(2),
      isMayhemMode: false,
      isCashbackCoin: true,
      virtualQuoteReserves: new BN(-5),
      creatorFeeBps: new BN(0),
      canEditCreatorFee: false,
    };
    const bytes = await launchSwapProgram.coder.accounts.encode("pool", pool);
    const decoded = decodePool([padded(bytes, 300).toString("base64"), "base64"]);
    expect(decoded).toEqual(toBigints(pool));
    expect(decoded.virtualQuoteReserves).toBe(-5n);
  });

  it("decodes the swap GlobalConfig and FeeConfig", async () => {
    const gc = {
      admin: key(30),
      lpFeeBasisPoints: new BN(20),
      protocolFeeBasisPoints: new BN(5),
      disableFlags: 0,
      protocolFeeRecipients: Array.from({ length: 8 }, (_, i) => key(70 + i)),
      coinCreatorFeeBasisPoints: new BN(5),
      adminSetCoinCreatorAuthority: key(31),
      whitelistPda: Z,
      reservedFeeRecipient: key(32),
      mayhemModeEnabled: true,
      reservedFeeRecipients: Array.from({ length: 7 }, (_, i) => key(80 + i)),
      isCashbackEnabled: true,
      buybackFeeRecipients: Array.from({ length: 8 }, (_, i) => key(90 + i)),
      buybackBasisPoints: new BN(5000),
      boostAuthority: Z,
      boostEnabled: false,
      creatorFeeConfigurable: false,
      maxConfigurableCreatorFeeBps: new BN(0),
    };
    const decoded = decodeSwapGlobalConfig(await launchSwapProgram.coder.accounts.encode("globalConfig", gc));
    expect(decoded).toEqual(toBigints(gc));
    const feeBytes = await launchSwapProgram.coder.accounts.encode("feeConfig", sdkFeeConfig);
    expect(decodeSwapFeeConfig(padded(feeBytes, 4097))).toEqual(toBigints(sdkFeeConfig));
  });

  it("decodes token accounts and mints of both token programs", () => {
    // Token-2022 accounts may carry extensions
    const account = tokenAccountData({
      mint: key(3),
      owner: key(1),
      amount: 123_456_789n,
      size: ACCOUNT_SIZE + 20,
    });
    expect(decodeTokenAccount(account, TOKEN_2022_PROGRAM_ID)).toEqual({
      mint: key(3),
      owner: key(1),
      amount: 123_456_789n,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    });
    const mint = mintData({ supply: 1_000_000_000_000_000n, decimals: 6 });
    expect(decodeMint(new Uint8Array(mint), TOKEN_PROGRAM_ID)).toEqual({
      supply: 1_000_000_000_000_000n,
      decimals: 6,
      isInitialized: true,
      tokenProgram: TOKEN_PROGRAM_ID,
    });
    expect(() => decodeTokenAccount(Buffer.alloc(100), TOKEN_PROGRAM_ID)).toThrow();
  });

  it("converts between bigint and BN without loss", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 127n), max: 2n ** 128n - 1n }), fc.array(fc.bigInt()), (x, xs) => {
        const value = { a: x, nested: { list: xs, key: key(1), flag: true, n: 7 } };
        const sdk = toSdk(value);
        expect(BN.isBN(sdk.a)).toBe(true);
        expect(sdk.nested.key).toBe(value.nested.key);
        expect(toBigints(sdk)).toEqual(value);
      }),
    );
  });
});
