/**
 * The account bytes a decoded trade event produces for the warm state (issue 21): the curve re-encoded by the
 * SDK IDL's coder with the event's reserves and every other byte kept, and vault amounts by AccountLayout.
 */
import { describe, expect, it } from "vitest";
import { ACCOUNT_SIZE, NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import { curveAfterTrade, vaultWithAmount } from "../../../src/launch/events/account-after-trade.js";
import { launchProgram } from "../../../src/launch/programs-offline.js";
import {
  DIRECT_CURVE_DECODE,
  decodeBondingCurve,
  decodeTokenAccount,
  toSdk,
} from "../../../src/launch/state.js";
import { bondingCurveData, key, tokenAccountData } from "../../helpers/fixtures.js";

const AFTER = {
  virtualTokenReserves: 1_040_000_000_000_000n,
  virtualSolReserves: 31_000_000_000n,
  realTokenReserves: 760_100_000_000_000n,
  realSolReserves: 1_000_000_000n,
};

/** A curve account as a newer program allocates it: the encoded layout, then bytes this IDL does not know. */
const curveAccount = (trailing: Buffer) => bondingCurveData(key(2), trailing);

describe("curveAfterTrade", () => {
  it("re-encodes the event's reserves, keeps every other field and the trailing bytes, moves lamports", async () => {
    const trailing = Buffer.from(Array.from({ length: 26 }, (_, i) => i + 1));
    const data = await curveAccount(trailing);
    expect(data.length).toBe(151);
    const out = await curveAfterTrade({ lamports: 2_000_000n, data }, AFTER);
    expect(out).not.toBeNull();
    expect(out!.data.length).toBe(151);
    expect(out!.data.subarray(125)).toEqual(trailing);
    expect(out!.lamports).toBe(2_000_000n + 1_000_000_000n);
    const decoded = decodeBondingCurve(out!.data);
    expect(decoded).toEqual({
      ...decodeBondingCurve(data),
      virtualTokenReserves: AFTER.virtualTokenReserves,
      virtualQuoteReserves: AFTER.virtualSolReserves,
      realTokenReserves: AFTER.realTokenReserves,
      realQuoteReserves: AFTER.realSolReserves,
    });
    // The cached bytes are copied, never written in place.
    expect(decodeBondingCurve(data).realQuoteReserves).toBe(0n);
  });

  it("a sell moves the curve's lamports down by the real SOL it paid out", async () => {
    const data = await curveAccount(Buffer.alloc(0));
    const bought = await curveAfterTrade({ lamports: 5_000_000_000n, data }, AFTER);
    const sold = await curveAfterTrade(bought!, { ...AFTER, realSolReserves: 400_000_000n });
    expect(sold!.lamports).toBe(5_000_000_000n + 400_000_000n);
    expect(decodeBondingCurve(sold!.data).realQuoteReserves).toBe(400_000_000n);
  });

  it("keeps the length of a short historical layout; refuses bytes that are not a curve", async () => {
    const full = await curveAccount(Buffer.alloc(0));
    const old = full.subarray(0, 81);
    const out = await curveAfterTrade({ lamports: 1n, data: old }, AFTER);
    expect(out!.data.length).toBe(81);
    expect(decodeBondingCurve(out!.data).virtualQuoteReserves).toBe(AFTER.virtualSolReserves);
    expect(decodeBondingCurve(out!.data).creator).toEqual(key(2));
    expect(await curveAfterTrade({ lamports: 1n, data: Buffer.alloc(151) }, AFTER)).toBeNull();
  });
});

/**
 * What the refresh wrote before the reserves were written at their offsets: the curve decoded, re-encoded by the
 * SDK IDL's account coder with the event's reserves, over a copy of the cached bytes (null when the encoded
 * layout had non-zero bytes past a shorter account).
 */
async function byCoder(data: Buffer, r: typeof AFTER): Promise<Buffer | null> {
  const encoded = await launchProgram.coder.accounts.encode(
    "bondingCurve",
    toSdk({
      ...decodeBondingCurve(data),
      virtualTokenReserves: r.virtualTokenReserves,
      virtualQuoteReserves: r.virtualSolReserves,
      realTokenReserves: r.realTokenReserves,
      realQuoteReserves: r.realSolReserves,
    }),
  );
  if (encoded.subarray(data.length).some((b) => b !== 0)) return null;
  const out = Buffer.from(data);
  encoded.copy(out, 0, 0, Math.min(encoded.length, out.length));
  return out;
}

describe("curveAfterTrade at the reserves' offsets", () => {
  it("writes the same bytes as the IDL's coder for any reserves, fields and historical length", async () => {
    expect(DIRECT_CURVE_DECODE).toBe(true);
    // Seeded: the same cases every run.
    let seed = 0x2f6b;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0);
    const u64 = () => (BigInt(next()) << 32n) | BigInt(next());
    for (let i = 0; i < 300; i++) {
      const full = await bondingCurveData(key(1 + (i % 7)), Buffer.from([i & 0xff, 7, 7]));
      // Random reserves and supply in the cached curve, and its flags as either value.
      full.writeBigUInt64LE(u64(), 8);
      full.writeBigUInt64LE(u64(), 40);
      full[48] = next() & 1;
      full[81] = next() & 1;
      full[82] = next() & 1;
      full.writeBigUInt64LE(u64(), 115);
      const length = [49, 81, 82, 83, 115, 124, 125, 128][i % 8]!;
      const data = Buffer.from(full.subarray(0, length));
      const r = {
        virtualTokenReserves: u64(),
        virtualSolReserves: u64(),
        realTokenReserves: u64(),
        realSolReserves: u64() >> 1n,
      };
      const cached = { lamports: 1n << 62n, data };
      const out = curveAfterTrade(cached, r);
      const expected = await byCoder(data, r);
      expect(out?.data ?? null).toEqual(expected);
      expect(out!.lamports).toBe(
        cached.lamports + r.realSolReserves - decodeBondingCurve(data).realQuoteReserves,
      );
      // A copy: the cached bytes are never written.
      expect(data.equals(full.subarray(0, length))).toBe(true);
    }
  });
});

describe("vaultWithAmount", () => {
  const mint = key(3);

  it("sets an SPL vault's amount, lamports unchanged", () => {
    const data = tokenAccountData({ mint, owner: key(4), amount: 500n });
    const out = vaultWithAmount({ lamports: 2_039_280n, data }, mint, 420n);
    expect(out!.lamports).toBe(2_039_280n);
    const decoded = decodeTokenAccount(out!.data, TOKEN_PROGRAM_ID);
    expect(decoded).toMatchObject({ mint, owner: key(4), amount: 420n });
    expect(decodeTokenAccount(data, TOKEN_PROGRAM_ID).amount).toBe(500n);
  });

  it("keeps a Token-2022 vault's extension bytes", () => {
    const data = tokenAccountData({ mint, owner: key(4), amount: 500n, size: ACCOUNT_SIZE + 5 });
    data.set([1, 2, 3, 4, 5], ACCOUNT_SIZE);
    const out = vaultWithAmount({ lamports: 1n, data }, mint, 900n);
    expect(out!.data.subarray(ACCOUNT_SIZE)).toEqual(Buffer.from([1, 2, 3, 4, 5]));
    expect(decodeTokenAccount(out!.data, TOKEN_2022_PROGRAM_ID).amount).toBe(900n);
  });

  it("a WSOL vault holds its amount in lamports too; a vault of another mint is refused", () => {
    const rent = 2_039_280n;
    const data = tokenAccountData({ mint: NATIVE_MINT, owner: key(4), amount: 7_000n, isNative: rent });
    const out = vaultWithAmount({ lamports: rent + 7_000n, data }, NATIVE_MINT, 10_000n);
    expect(out!.lamports).toBe(rent + 10_000n);
    expect(decodeTokenAccount(out!.data, TOKEN_PROGRAM_ID).amount).toBe(10_000n);
    expect(vaultWithAmount({ lamports: 1n, data }, mint, 1n)).toBeNull();
    expect(vaultWithAmount({ lamports: 1n, data: Buffer.alloc(100) }, mint, 1n)).toBeNull();
  });
});
