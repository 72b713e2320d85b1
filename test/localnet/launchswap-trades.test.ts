import { describe, it, expect, beforeAll } from "vitest";
import fc from "fast-check";
import BN from "bn.js";
import { Keypair, PublicKey, Transaction, TransactionInstruction } from "@solana/web3.js";
import { createLedger, type Ledger } from "../../localnet/ledger/index.js";
import {
  completeCurve,
  createLaunchProgram,
  createToken,
  installLaunchGenesis,
  readCurve,
} from "../../localnet/programs/launch/index.js";
import {
  createLaunchSwapProgram,
  installLaunchSwapGenesis,
} from "../../localnet/programs/launchswap/index.js";
import { migrateCurve, setSwapCashback } from "../../localnet/programs/launchswap/admin.js";
import { executeMigrate } from "../../localnet/programs/launchswap/migrate.js";
import {
  NATIVE_MINT,
  SWAP_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  ata,
  swapUserVolumeAccumulatorPda,
} from "../../localnet/programs/launchswap/addresses.js";
import { readTokenAccount } from "../../localnet/programs/launchswap/token-io.js";
import { decodeAccount, type UserVolumeAccumulatorData } from "../../localnet/programs/launchswap/codec.js";
import { buildClaimSwapCashback } from "../../src/launch/cashback-instructions.js";
import { launchSwapSdk } from "../../src/launch/sdk.js";
import { accountInfo, lamports } from "./ledger-views.js";

const {
  OnlinePumpAmmSdk,
  PUMP_AMM_SDK,
  OFFLINE_PUMP_AMM_PROGRAM,
  buyBaseInput,
  buyQuoteInput,
  sellBaseInput,
} = launchSwapSdk;

type SwapState = Awaited<ReturnType<InstanceType<typeof OnlinePumpAmmSdk>["swapSolanaState"]>>;

const CURVE_TOKENS = 206_900_000_000_000n;
/** A completed curve holds about 85.005 SOL (reference D.5). */
const CURVE_SOL_MIN = 85_000_000_000n;
const MIGRATION_FEE = 15_000_001n;

/** The ledger as the swap SDK's connection (it only calls getMultipleAccountsInfo). */
function connectionOf(ledger: Ledger): ConstructorParameters<typeof OnlinePumpAmmSdk>[0] {
  const conn = {
    getMultipleAccountsInfo: async (keys: PublicKey[]) => keys.map((k) => accountInfo(ledger, k)),
  };
  // The SDK only reads accounts through getMultipleAccountsInfo; a full Connection is not needed.
  return conn as unknown as ConstructorParameters<typeof OnlinePumpAmmSdk>[0];
}

/** The real path: create_v2 through the launch program, then buy the curve out. */
function completeCurveFixture(ledger: Ledger, cashback: boolean): { mint: PublicKey; creator: PublicKey } {
  const creator = Keypair.generate();
  const { mint } = createToken(ledger, { cashback, creator });
  completeCurve(ledger, mint);
  return { mint, creator: creator.publicKey };
}

function newLedger(): Ledger {
  const opts = { cashbackCreation: true };
  const ledger = createLedger({
    programs: [createLaunchProgram({ ...opts, migrate: executeMigrate }), createLaunchSwapProgram()],
  });
  installLaunchGenesis(ledger, opts);
  installLaunchSwapGenesis(ledger);
  return ledger;
}

function send(ledger: Ledger, payer: Keypair, ixs: TransactionInstruction[]) {
  const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash();
  const tx = new Transaction({
    feePayer: payer.publicKey,
    blockhash,
    lastValidBlockHeight: Number(lastValidBlockHeight),
  });
  tx.add(...ixs);
  tx.sign(payer);
  const record = ledger.processTransaction(tx.serialize());
  ledger.advanceSlots(1);
  return record;
}

function tokens(ledger: Ledger, k: PublicKey): bigint {
  return readTokenAccount(ledger, k)?.amount ?? 0n;
}

function quoteArgs(state: SwapState) {
  return {
    baseReserve: state.poolBaseAmount,
    quoteReserve: state.poolQuoteAmount,
    globalConfig: state.globalConfig,
    baseMintAccount: state.baseMintAccount,
    baseMint: state.baseMint,
    coinCreator: state.pool.coinCreator,
    creator: state.pool.creator,
    feeConfig: state.feeConfig,
    quoteMint: state.pool.quoteMint,
    isMayhemMode: state.pool.isMayhemMode,
  };
}

const big = (v: BN): bigint => BigInt(v.toString());

interface World {
  ledger: Ledger;
  sdk: InstanceType<typeof OnlinePumpAmmSdk>;
  pool: PublicKey;
  mint: PublicKey;
  user: Keypair;
}

/** What buy_exact_quote_in charges for routed input `eff`: eff plus each fee rounded up (SDK fee math). */
function exactQuoteInCost(state: SwapState, eff: bigint): bigint {
  const f = launchSwapSdk.computeFeesBps({
    globalConfig: state.globalConfig,
    feeConfig: state.feeConfig,
    creator: state.pool.creator,
    baseMintSupply: new BN(state.baseMintAccount.supply.toString()),
    baseMint: state.baseMint,
    baseReserve: state.poolBaseAmount,
    quoteReserve: state.poolQuoteAmount,
    quoteMint: state.pool.quoteMint,
  });
  const fee = (bps: BN) => (eff * big(bps) + 9_999n) / 10_000n;
  const creator = state.pool.coinCreator.equals(PublicKey.default) ? 0n : fee(f.creatorFeeBps);
  return eff + fee(f.lpFeeBps) + fee(f.protocolFeeBps) + creator;
}

function world(cashback: boolean): World {
  const ledger = newLedger();
  const { mint } = completeCurveFixture(ledger, cashback);
  const { pool } = migrateCurve(ledger, mint);
  const user = Keypair.generate();
  ledger.fund(user.publicKey, 1_000_000_000_000n);
  return { ledger, sdk: new OnlinePumpAmmSdk(connectionOf(ledger)), pool, mint, user };
}

/** Decodes the swap program's `Program data:` events of a transaction with the SDK's coder. */
function swapEvents(logs: string[]): { name: string; data: Record<string, unknown> }[] {
  return logs
    .filter((l) => l.startsWith("Program data: "))
    .map((l) => OFFLINE_PUMP_AMM_PROGRAM.coder.events.decode(l.slice("Program data: ".length)))
    .filter((e): e is NonNullable<typeof e> => e !== null) as {
    name: string;
    data: Record<string, unknown>;
  }[];
}

/** Sum of token balances of accounts. */
function sumTokens(ledger: Ledger, keys: PublicKey[]): bigint {
  return keys.reduce((acc, k) => acc + tokens(ledger, k), 0n);
}

function swapIxIndex(ixs: TransactionInstruction[]): number {
  return ixs.findIndex((ix) => ix.programId.equals(SWAP_PROGRAM_ID) && ix.data.length > 8);
}

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

describe("launchswap trades built by the official SDK", () => {
  let w: World;
  beforeAll(async () => {
    w = world(false);
    // A first buy creates the user's base ATA and volume accumulator, so later balance deltas are exact.
    const state = await w.sdk.swapSolanaState(w.pool, w.user.publicKey);
    const rec = send(w.ledger, w.user, await PUMP_AMM_SDK.buyBaseInput(state, new BN(1_000_000), 1));
    expect(rec.err).toBeNull();
  });

  it("buy lands and balances equal buyBaseInput to the unit", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 1n, max: 2_000_000_000_000n }), async (base) => {
        const { ledger, user, pool, mint } = w;
        const state = await w.sdk.swapSolanaState(pool, user.publicKey);
        const q = buyBaseInput({ ...quoteArgs(state), base: new BN(base.toString()), slippage: 1 });
        const userBase = ata(user.publicKey, mint, TOKEN_2022_PROGRAM_ID);
        const before = { sol: lamports(ledger, user.publicKey), base: tokens(ledger, userBase) };
        const ixs = await PUMP_AMM_SDK.buyBaseInput(state, new BN(base.toString()), 1);
        const keys = ixs[swapIxIndex(ixs)]!.keys;
        // pool quote vault, protocol fee ATA, coin creator vault ATA, buyback ATA (last remaining account)
        const sinks = [keys[8]!.pubkey, keys[10]!.pubkey, keys[17]!.pubkey, keys[keys.length - 1]!.pubkey];
        const sinksBefore = sumTokens(ledger, sinks);
        const rec = send(ledger, user, ixs);
        expect(rec.err).toBeNull();
        expect(tokens(ledger, userBase) - before.base).toBe(base);
        expect(before.sol - lamports(ledger, user.publicKey)).toBe(big(q.uiQuote) + rec.fee);
        expect(sumTokens(ledger, sinks) - sinksBefore).toBe(big(q.uiQuote));
        const [ev] = swapEvents(rec.logs);
        expect(ev?.name).toBe("buyEvent");
        expect(BigInt(String(ev!.data["baseAmountOut"]))).toBe(base);
        expect(BigInt(String(ev!.data["quoteAmountIn"]))).toBe(big(q.internalQuoteAmount));
      }),
      { numRuns: 20 },
    );
  });

  it("sell lands and balances equal sellBaseInput to the unit", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 10_000_000n, max: 100_000_000_000n }), async (base) => {
        const { ledger, user, pool, mint } = w;
        const state = await w.sdk.swapSolanaState(pool, user.publicKey);
        const q = sellBaseInput({ ...quoteArgs(state), base: new BN(base.toString()), slippage: 1 });
        const userBase = ata(user.publicKey, mint, TOKEN_2022_PROGRAM_ID);
        const before = { sol: lamports(ledger, user.publicKey), base: tokens(ledger, userBase) };
        const rec = send(ledger, user, await PUMP_AMM_SDK.sellBaseInput(state, new BN(base.toString()), 1));
        expect(rec.err).toBeNull();
        expect(before.base - tokens(ledger, userBase)).toBe(base);
        expect(lamports(ledger, user.publicKey) - before.sol).toBe(big(q.uiQuote) - rec.fee);
      }),
      { numRuns: 20 },
    );
  });

  it("buy_exact_quote_in (reference A.4) returns exactly buyQuoteInput's base", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 10_000n, max: 5_000_000_000n }), async (spend) => {
        const { ledger, user, pool, mint } = w;
        const state = await w.sdk.swapSolanaState(pool, user.publicKey);
        const q = buyQuoteInput({ ...quoteArgs(state), quote: new BN(spend.toString()), slippage: 0 });
        const ixs = await PUMP_AMM_SDK.buyInstructions(state, q.base, new BN(spend.toString()));
        const i = swapIxIndex(ixs);
        const data = OFFLINE_PUMP_AMM_PROGRAM.coder.instruction.encode("buyExactQuoteIn", {
          spendableQuoteIn: new BN(spend.toString()),
          minBaseAmountOut: q.base,
          trackVolume: { 0: true },
        });
        ixs[i] = new TransactionInstruction({ programId: ixs[i]!.programId, keys: ixs[i]!.keys, data });
        const userBase = ata(user.publicKey, mint, TOKEN_2022_PROGRAM_ID);
        const before = { sol: lamports(ledger, user.publicKey), base: tokens(ledger, userBase) };
        const rec = send(ledger, user, ixs);
        expect(rec.err).toBeNull();
        expect(tokens(ledger, userBase) - before.base).toBe(big(q.base));
        const spent = before.sol - lamports(ledger, user.publicKey) - rec.fee;
        expect(spent).toBe(exactQuoteInCost(state, big(q.internalQuoteWithoutFees)));
        expect(spent).toBeLessThanOrEqual(spend);
      }),
      { numRuns: 20 },
    );
  });

  it("a max quote one unit too tight fails with 6004 and changes no balance but the fee", async () => {
    const { ledger, user, pool, mint } = w;
    const state = await w.sdk.swapSolanaState(pool, user.publicKey);
    const base = new BN(123_456_789);
    const q = buyBaseInput({ ...quoteArgs(state), base, slippage: 0 });
    const ixs = await PUMP_AMM_SDK.buyInstructions(state, base, q.uiQuote.subn(1));
    const watched = [
      ata(user.publicKey, mint, TOKEN_2022_PROGRAM_ID),
      state.pool.poolBaseTokenAccount,
      state.pool.poolQuoteTokenAccount,
      ...ixs[swapIxIndex(ixs)]!.keys.map((k) => k.pubkey),
    ];
    const snapshot = () => watched.map((k) => [lamports(ledger, k), tokens(ledger, k)]);
    const before = snapshot();
    const solBefore = lamports(ledger, user.publicKey);
    const rec = send(ledger, user, ixs);
    expect(rec.err).toEqual({ InstructionError: [swapIxIndex(ixs), { Custom: 6004 }] });
    expect(rec.logs).toContain(
      "Program log: AnchorError occurred. Error Code: ExceededSlippage. Error Number: 6004. Error Message: ExceededSlippage.",
    );
    expect(lamports(ledger, user.publicKey)).toBe(solBefore - rec.fee);
    const after = snapshot();
    watched.forEach((k, i) => {
      if (!k.equals(user.publicKey)) expect(after[i]).toEqual(before[i]);
    });
    // The same cap at the exact total lands.
    const ok = send(ledger, user, await PUMP_AMM_SDK.buyInstructions(state, base, q.uiQuote));
    expect(ok.err).toBeNull();
  });

  it("buy_exact_quote_in with min_base_amount_out one unit too high fails with 6040", async () => {
    const { ledger, user, pool } = w;
    const state = await w.sdk.swapSolanaState(pool, user.publicKey);
    const spend = new BN(700_000_000);
    const q = buyQuoteInput({ ...quoteArgs(state), quote: spend, slippage: 0 });
    const ixs = await PUMP_AMM_SDK.buyInstructions(state, q.base, spend);
    const i = swapIxIndex(ixs);
    const data = OFFLINE_PUMP_AMM_PROGRAM.coder.instruction.encode("buyExactQuoteIn", {
      spendableQuoteIn: spend,
      minBaseAmountOut: q.base.addn(1),
      trackVolume: { 0: true },
    });
    ixs[i] = new TransactionInstruction({ programId: ixs[i]!.programId, keys: ixs[i]!.keys, data });
    const baseVault = tokens(ledger, state.pool.poolBaseTokenAccount);
    const rec = send(ledger, user, ixs);
    expect(rec.err).toEqual({ InstructionError: [i, { Custom: 6040 }] });
    expect(tokens(ledger, state.pool.poolBaseTokenAccount)).toBe(baseVault);
  });

  it("a sell whose min quote out is one unit too high fails with 6004", async () => {
    const { ledger, user, pool } = w;
    const state = await w.sdk.swapSolanaState(pool, user.publicKey);
    const base = new BN(50_000_000);
    const q = sellBaseInput({ ...quoteArgs(state), base, slippage: 0 });
    const tooTight = await PUMP_AMM_SDK.sellInstructions(state, base, q.uiQuote.addn(1));
    const rec = send(ledger, user, tooTight);
    expect(rec.err).toEqual({ InstructionError: [swapIxIndex(tooTight), { Custom: 6004 }] });
    const exact = send(ledger, user, await PUMP_AMM_SDK.sellInstructions(state, base, q.uiQuote));
    expect(exact.err).toBeNull();
  });

  it("extend_account grows a short pool to 300 bytes inside an SDK-built buy", async () => {
    const { ledger, user, pool } = w;
    const acc = ledger.getAccount(pool)!;
    ledger.setAccount(pool, { ...acc, data: acc.data.slice(0, 270) });
    const state = await w.sdk.swapSolanaState(pool, user.publicKey);
    const ixs = await PUMP_AMM_SDK.buyBaseInput(state, new BN(1_000_000), 1);
    expect(ixs[0]!.programId.equals(SWAP_PROGRAM_ID) && ixs[0]!.data.length === 8).toBe(true);
    const rec = send(ledger, user, ixs);
    expect(rec.err).toBeNull();
    expect(ledger.getAccount(pool)!.data.length).toBe(300);
  });

  it("rejects a wrong PDA with ConstraintSeeds 2006 and a wrong token program", async () => {
    const { ledger, user, pool } = w;
    const state = await w.sdk.swapSolanaState(pool, user.publicKey);
    const ixs = await PUMP_AMM_SDK.buyInstructions(state, new BN(1_000_000), new BN(1_000_000_000));
    const i = swapIxIndex(ixs);
    const swap = ixs[i]!;
    const withKey = (idx: number, pubkey: PublicKey): TransactionInstruction[] => {
      const keys = swap.keys.map((k, j) => (j === idx ? { ...k, pubkey } : k));
      return ixs.map((ix, j) => (j === i ? new TransactionInstruction({ ...swap, keys }) : ix));
    };
    const wrongVaultAuthority = send(ledger, user, withKey(18, Keypair.generate().publicKey));
    expect(wrongVaultAuthority.err).toEqual({ InstructionError: [i, { Custom: 2006 }] });
    const wrongUva = send(
      ledger,
      user,
      withKey(20, swapUserVolumeAccumulatorPda(Keypair.generate().publicKey)),
    );
    expect(wrongUva.err).toEqual({ InstructionError: [i, { Custom: 2006 }] });
    const wrongTokenProgram = send(ledger, user, withKey(11, TOKEN_PROGRAM_ID));
    expect(wrongTokenProgram.err).toEqual({ InstructionError: [i, { Custom: 2022 }] });
    const wrongPoolV2 = send(ledger, user, withKey(23, Keypair.generate().publicKey));
    expect(wrongPoolV2.err).toEqual({ InstructionError: [i, { Custom: 6062 }] });
    const withSwap = (ix: TransactionInstruction) => ixs.map((x, j) => (j === i ? ix : x));
    const readOnlyPool = swap.keys.map((k, j) => (j === 0 ? { ...k, isWritable: false } : k));
    const notMut = send(ledger, user, withSwap(new TransactionInstruction({ ...swap, keys: readOnlyPool })));
    expect(notMut.err).toEqual({ InstructionError: [i, { Custom: 2000 }] });
    const short = send(
      ledger,
      user,
      withSwap(new TransactionInstruction({ ...swap, keys: swap.keys.slice(0, 20) })),
    );
    expect(short.err).toEqual({ InstructionError: [i, { Custom: 3005 }] });
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
    const fees = launchSwapSdk.computeFeesBps({
      globalConfig: state.globalConfig,
      feeConfig: state.feeConfig,
      creator: state.pool.creator,
      baseMintSupply: new BN(state.baseMintAccount.supply.toString()),
      baseMint: state.baseMint,
      baseReserve: state.poolBaseAmount,
      quoteReserve: state.poolQuoteAmount,
      quoteMint: state.pool.quoteMint,
    });
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
