/** Launchswap buys and sells built by the official SDK: balances equal its quotes to the unit, and its refusals. */
import { describe, it, expect, beforeAll } from "vitest";
import fc from "fast-check";
import BN from "bn.js";
import { Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { type Ledger } from "../../localnet/ledger/index.js";
import {
  SWAP_PROGRAM_ID,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  ata,
  swapUserVolumeAccumulatorPda,
} from "../../localnet/programs/launchswap/addresses.js";
import { launchSwapSdk } from "../../src/launch/sdk.js";
import { lamports } from "./ledger-views.js";

const { PUMP_AMM_SDK, OFFLINE_PUMP_AMM_PROGRAM, buyBaseInput, buyQuoteInput, sellBaseInput } = launchSwapSdk;
import {
  big,
  quoteArgs,
  send,
  swapEvents,
  swapIxIndex,
  tokens,
  world,
  type SwapState,
  type World,
  feesBps,
} from "./launchswap-fixture.js";

/** What buy_exact_quote_in charges for routed input `eff`: eff plus each fee rounded up (SDK fee math). */
function exactQuoteInCost(state: SwapState, eff: bigint): bigint {
  const f = feesBps(state);
  const fee = (bps: BN) => (eff * big(bps) + 9_999n) / 10_000n;
  const creator = state.pool.coinCreator.equals(PublicKey.default) ? 0n : fee(f.creatorFeeBps);
  return eff + fee(f.lpFeeBps) + fee(f.protocolFeeBps) + creator;
}

/** Sum of token balances of accounts. */
function sumTokens(ledger: Ledger, keys: PublicKey[]): bigint {
  return keys.reduce((acc, k) => acc + tokens(ledger, k), 0n);
}

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
