/** Launchswap pools: migration from a completed curve, a mayhem pool's fee recipients, and cashback pools. */
import { describe, it, expect } from "vitest";
import BN from "bn.js";
import { Keypair, TransactionInstruction } from "@solana/web3.js";
import { completeCurve, createToken, readCurve } from "../../localnet/programs/launch/index.js";
import { migrateCurve, setSwapCashback } from "../../localnet/programs/launchswap/admin.js";
import {
  NATIVE_MINT,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  ata,
  swapUserVolumeAccumulatorPda,
} from "../../localnet/programs/launchswap/addresses.js";
import { decodeAccount, type UserVolumeAccumulatorData } from "../../localnet/programs/launchswap/codec.js";
import { buildClaimSwapCashback } from "../../src/launch/cashback-instructions.js";
import { launchSwapSdk } from "../../src/launch/sdk.js";
import { lamports } from "./ledger-views.js";

const { OnlinePumpAmmSdk, PUMP_AMM_SDK, buyBaseInput, sellBaseInput } = launchSwapSdk;
import {
  big,
  connectionOf,
  completeCurveFixture,
  newLedger,
  quoteArgs,
  send,
  swapEvents,
  swapIxIndex,
  tokens,
  world,
  feesBps,
} from "./launchswap-fixture.js";

const CURVE_TOKENS = 206_900_000_000_000n;
/** A completed curve holds about 85.005 SOL (reference D.5). */
const CURVE_SOL_MIN = 85_000_000_000n;
const MIGRATION_FEE = 15_000_001n;

describe("launchswap migration", () => {
  it("moves the curve's tokens and SOL minus the migration fee into the canonical pool's vaults", async () => {
    const ledger = newLedger();
    const { mint, creator } = completeCurveFixture(ledger, false);
    const before = readCurve(ledger, mint)!;
    expect(before.complete).toBe(true);
    const { pool } = migrateCurve(ledger, mint);
    expect(pool.equals(launchSwapSdk.canonicalPumpPoolPda(mint))).toBe(true);
    const state = await new OnlinePumpAmmSdk(connectionOf(ledger)).swapSolanaState(
      pool,
      Keypair.generate().publicKey,
    );
    expect(big(state.poolBaseAmount)).toBe(CURVE_TOKENS);
    expect(big(state.poolQuoteAmount)).toBe(before.realQuoteReserves - MIGRATION_FEE);
    expect(before.realQuoteReserves).toBeGreaterThan(CURVE_SOL_MIN);
    expect(state.pool.coinCreator.equals(creator)).toBe(true);
    expect(state.pool.quoteMint.equals(NATIVE_MINT)).toBe(true);
    expect(state.baseTokenProgram.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    expect(ledger.getAccount(pool)!.data.length).toBe(300);
    const curve = readCurve(ledger, mint)!;
    expect(curve.virtualTokenReserves).toBe(0n);
    expect(curve.realQuoteReserves).toBe(0n);
    expect(() => migrateCurve(ledger, mint)).toThrow();
  });
});

describe("launchswap mayhem pool", () => {
  it("accepts the reserved fee recipients the SDK picks and refuses a normal one with 6013", async () => {
    const ledger = newLedger();
    const creator = Keypair.generate();
    const { mint } = createToken(ledger, { mayhem: true, creator });
    completeCurve(ledger, mint);
    const { pool } = migrateCurve(ledger, mint);
    const user = Keypair.generate();
    ledger.fund(user.publicKey, 100_000_000_000n);
    const sdk = new OnlinePumpAmmSdk(connectionOf(ledger));
    const state = await sdk.swapSolanaState(pool, user.publicKey);
    expect(state.pool.isMayhemMode).toBe(true);
    const q = buyBaseInput({ ...quoteArgs(state), base: new BN(1_000_000_000), slippage: 0 });
    const ixs = await PUMP_AMM_SDK.buyInstructions(state, new BN(1_000_000_000), q.uiQuote);
    const i = swapIxIndex(ixs);
    const normal = state.globalConfig.protocolFeeRecipients[0]!;
    const keys = ixs[i]!.keys.map((k, j) =>
      j === 9
        ? { ...k, pubkey: normal }
        : j === 10
          ? { ...k, pubkey: ata(normal, NATIVE_MINT, TOKEN_PROGRAM_ID) }
          : k,
    );
    const wrong = ixs.map((ix, j) => (j === i ? new TransactionInstruction({ ...ix, keys }) : ix));
    expect(send(ledger, user, wrong).err).toEqual({ InstructionError: [i, { Custom: 6013 }] });
    expect(send(ledger, user, ixs).err).toBeNull();
  });
});

describe("launchswap cashback", () => {
  it("a cashback pool accrues the creator fee to ATA(amm UVA, WSOL) and claim_cashback pays it", async () => {
    const w = world(true);
    const { ledger, user, pool } = w;
    const state = await w.sdk.swapSolanaState(pool, user.publicKey);
    expect(state.pool.isCashbackCoin).toBe(true);
    const base = new BN(5_000_000_000);
    const q = buyBaseInput({ ...quoteArgs(state), base, slippage: 0 });
    const fees = feesBps(state);
    const creatorFee = (big(q.internalQuoteAmount) * big(fees.creatorFeeBps) + 9_999n) / 10_000n;
    expect(creatorFee).toBeGreaterThan(0n);
    const rec = send(ledger, user, await PUMP_AMM_SDK.buyInstructions(state, base, q.uiQuote));
    expect(rec.err).toBeNull();
    const uva = swapUserVolumeAccumulatorPda(user.publicKey);
    const uvaAta = ata(uva, NATIVE_MINT, TOKEN_PROGRAM_ID);
    expect(tokens(ledger, uvaAta)).toBe(creatorFee);
    const decoded = decodeAccount<UserVolumeAccumulatorData>(
      "UserVolumeAccumulator",
      ledger.getAccount(uva)!.data,
    );
    expect(big(decoded.cashback_earned)).toBe(creatorFee);
    expect(big(decoded.total_cashback_claimed)).toBe(0n);

    // A sell built by the SDK passes [ATA(UVA), UVA]: the creator fee on the sell accrues as well.
    const sellState = await w.sdk.swapSolanaState(pool, user.publicKey);
    const sold = new BN(2_000_000_000);
    const sq = sellBaseInput({ ...quoteArgs(sellState), base: sold, slippage: 0 });
    const sellCreatorFee = (big(sq.internalQuoteAmountOut) * big(fees.creatorFeeBps) + 9_999n) / 10_000n;
    const sellRec = send(ledger, user, await PUMP_AMM_SDK.sellInstructions(sellState, sold, sq.uiQuote));
    expect(sellRec.err).toBeNull();
    const accrued = creatorFee + sellCreatorFee;
    expect(tokens(ledger, uvaAta)).toBe(accrued);

    const solBefore = lamports(ledger, user.publicKey);
    const claim = send(ledger, user, await buildClaimSwapCashback(user.publicKey));
    expect(claim.err).toBeNull();
    expect(lamports(ledger, user.publicKey) - solBefore).toBe(accrued - claim.fee);
    expect(tokens(ledger, uvaAta)).toBe(0n);
    const after = decodeAccount<UserVolumeAccumulatorData>(
      "UserVolumeAccumulator",
      ledger.getAccount(uva)!.data,
    );
    expect(big(after.total_cashback_claimed)).toBe(accrued);
    const [claimEvent] = swapEvents(claim.logs);
    expect(claimEvent?.name).toBe("claimCashbackEvent");
  });

  it("a non-cashback pool pays the creator fee to the coin creator vault, nothing to the accumulator", async () => {
    const w = world(false);
    const { ledger, user, pool } = w;
    const state = await w.sdk.swapSolanaState(pool, user.publicKey);
    const ixs = await PUMP_AMM_SDK.buyBaseInput(state, new BN(3_000_000_000), 1);
    const creatorVaultAta = ixs[swapIxIndex(ixs)]!.keys[17]!.pubkey;
    const before = tokens(ledger, creatorVaultAta);
    expect(send(ledger, user, ixs).err).toBeNull();
    expect(tokens(ledger, creatorVaultAta)).toBeGreaterThan(before);
    const uvaAta = ata(swapUserVolumeAccumulatorPda(user.publicKey), NATIVE_MINT, TOKEN_PROGRAM_ID);
    expect(ledger.getAccount(uvaAta)).toBeNull();
  });

  it("setSwapCashback makes the amount claimable", async () => {
    const ledger = newLedger();
    const user = Keypair.generate();
    ledger.fund(user.publicKey, 1_000_000_000n);
    setSwapCashback(ledger, user.publicKey, 123_456_789n);
    setSwapCashback(ledger, user.publicKey, 23_456_789n);
    const solBefore = lamports(ledger, user.publicKey);
    const rec = send(ledger, user, await buildClaimSwapCashback(user.publicKey));
    expect(rec.err).toBeNull();
    expect(lamports(ledger, user.publicKey) - solBefore).toBe(23_456_789n - rec.fee);
    const again = send(ledger, user, await buildClaimSwapCashback(user.publicKey));
    expect(again.err).toBeNull();
  });
});
