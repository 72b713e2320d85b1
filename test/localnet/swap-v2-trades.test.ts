/**
 * Swap v2 trades and pool sweeps on the 2026-10 localnet (PUMP_SWAP_TRADE_V2.md, SWEEP_FEES.md,
 * VIRTUAL_QUOTE_RESERVES_FEE_ADJUSTMENT.md): v1 prices, the protocol and creator fee kept in the quote
 * vault and subtracted from the signed virtual quote reserves (negative afterwards), prices of later
 * trades on vault + virtual reserves, sweeps that pay the fees out without moving the price, and the
 * cashback refusal (6079).
 */
import BN from "bn.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createSyncNativeInstruction,
  getAssociatedTokenAddressSync,
  NATIVE_MINT,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { Keypair, PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import type { Ledger } from "../../localnet/ledger/index.js";
import {
  completeCurve,
  createToken,
  FEE_RECIPIENTS,
  readCurve,
  readGlobal,
} from "../../localnet/programs/launch/index.js";
import { poolAuthorityPda, poolPda } from "../../localnet/programs/launchswap/addresses.js";
import { migrateCurve } from "../../localnet/programs/launchswap/admin.js";
import { migrateV2Instruction } from "../../localnet/programs/launchswap/migrate-v2.js";
import { readPoolFeeState } from "../../localnet/programs/launchswap/pool-buckets.js";
import { launchSwapSdk } from "../../src/launch/sdk.js";
import { expectCustom, send } from "./launch-fixture.js";
import { connectionOf, quoteArgs, swapEvents, tokens } from "./launchswap-fixture.js";
import {
  BUYBACK,
  createUserAta,
  curveV3Ix,
  eventsOf,
  fixtureIx,
  lastU64,
  poolOf,
  poolSweepIx,
  swapV2Keys,
  upgradeLedger,
  wallet,
} from "./upgrade-fixture.js";

const { OnlinePumpAmmSdk, PUMP_AMM_SDK, buyBaseInput } = launchSwapSdk;
const n = (v: unknown) => BigInt(String(v));
const wsol = (owner: PublicKey) => getAssociatedTokenAddressSync(NATIVE_MINT, owner, true, TOKEN_PROGRAM_ID);

/** Wraps `lamports` into the owner's WSOL account (created when missing). */
function wrap(owner: PublicKey, lamports: bigint): TransactionInstruction[] {
  return [
    createAssociatedTokenAccountIdempotentInstruction(
      owner,
      wsol(owner),
      owner,
      NATIVE_MINT,
      TOKEN_PROGRAM_ID,
    ),
    SystemProgram.transfer({ fromPubkey: owner, toPubkey: wsol(owner), lamports }),
    createSyncNativeInstruction(wsol(owner), TOKEN_PROGRAM_ID),
  ];
}

/** A migrated pool and a user holding 100 WSOL and a base token account. */
function poolWorld(opts: { cashback?: boolean } = {}) {
  const ledger = upgradeLedger();
  const { mint } = createToken(ledger, { creator: Keypair.generate(), ...opts });
  completeCurve(ledger, mint);
  const { pool } = migrateCurve(ledger, mint);
  const user = wallet(ledger, 1_000n);
  const rec = send(ledger, user, [
    createUserAta(mint, user.publicKey),
    ...wrap(user.publicKey, 100_000_000_000n),
  ]);
  expect(rec.err, rec.logs.join("\n")).toBeNull();
  return { ledger, mint, pool, user };
}

const BUY_EVENT = [103, 244, 82, 31, 44, 245, 119, 119];

/** The raw bytes of the first event with discriminator `disc`. */
function eventBytes(logs: string[], disc: number[]): Buffer {
  for (const l of logs) {
    if (!l.startsWith("Program data: ")) continue;
    const raw = Buffer.from(l.slice("Program data: ".length), "base64");
    if (disc.every((b, i) => raw[i] === b)) return raw;
  }
  throw new Error("event not logged");
}

const feeState = (ledger: Ledger, pool: PublicKey) => readPoolFeeState(ledger.getAccount(pool)!.data);

function swapIx(
  ledger: Ledger,
  name: string,
  pool: PublicKey,
  user: PublicKey,
  args: Record<string, bigint>,
) {
  return fixtureIx("launchswap", name, swapV2Keys(ledger, pool, user), args);
}

describe("swap v2 trades (2026-10)", () => {
  it("buy_v2 keeps the protocol and creator fee in the vault; virtual quote reserves go negative by them", async () => {
    const { ledger, pool, user } = poolWorld();
    const p = poolOf(ledger, pool);
    const vault0 = tokens(ledger, p.pool_quote_token_account);
    const buyback0 = tokens(ledger, wsol(BUYBACK));
    const user0 = tokens(ledger, wsol(user.publicKey));
    const state = await new OnlinePumpAmmSdk(connectionOf(ledger)).swapSolanaState(pool, user.publicKey);
    const base = 3_000_000_000_000n;
    const q = buyBaseInput({ ...quoteArgs(state), base: new BN(base.toString()), slippage: 1 });
    const rec = send(ledger, user, [
      swapIx(ledger, "buy_v2", pool, user.publicKey, {
        base_amount_out: base,
        max_quote_amount_in: n(q.maxQuote),
      }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    const [ev] = swapEvents(rec.logs);
    expect(ev!.name).toBe("buyEvent");
    const d = ev!.data;
    expect(n(d.quoteAmountIn)).toBe(n(q.internalQuoteAmount));
    expect(user0 - tokens(ledger, wsol(user.publicKey))).toBe(n(q.uiQuote));
    expect(d.ixName).toBe("buy_v2");
    expect((d.protocolFeeRecipient as PublicKey).equals(PublicKey.default)).toBe(true);
    const buyback = n(d.buybackFee);
    // protocol_fee in the event is what waits (the buyback part is split off and paid now).
    const keptProtocol = n(d.protocolFee);
    const keptCreator = n(d.coinCreatorFee);
    expect(keptCreator).toBeGreaterThan(0n);
    expect(tokens(ledger, wsol(BUYBACK)) - buyback0).toBe(buyback);
    const fs = feeState(ledger, pool);
    expect(fs).toEqual({
      virtualQuoteReserves: -(keptProtocol + keptCreator),
      protocolFees: keptProtocol,
      creatorFees: keptCreator,
    });
    expect(lastU64(eventBytes(rec.logs, BUY_EVENT))).toBe(keptCreator);
    // Effective reserves (vault + virtual) moved by the priced quote and LP fee only.
    const eff = tokens(ledger, p.pool_quote_token_account) + fs.virtualQuoteReserves;
    expect(eff - vault0).toBe(n(d.quoteAmountIn) + n(d.lpFee));
    expect(poolOf(ledger, pool).virtual_quote_reserves.toString()).toBe(fs.virtualQuoteReserves.toString());
  });

  it("later trades (v1 and v2) price on vault + negative virtual reserves, as a signed quote says", async () => {
    const { ledger, pool, user } = poolWorld();
    const first = send(ledger, user, [
      swapIx(ledger, "buy_exact_quote_in_v2", pool, user.publicKey, {
        spendable_quote_in: 5_000_000_000n,
        min_base_amount_out: 1n,
      }),
    ]);
    expect(first.err, first.logs.join("\n")).toBeNull();
    const vqr = feeState(ledger, pool).virtualQuoteReserves;
    expect(vqr).toBeLessThan(0n);
    const sdk = new OnlinePumpAmmSdk(connectionOf(ledger));
    const state = await sdk.swapSolanaState(pool, user.publicKey);
    const base = new BN("2000000000000");
    const signed = buyBaseInput({
      ...quoteArgs(state),
      base,
      slippage: 1,
      virtualQuoteReserves: new BN(vqr.toString()),
    });
    const unsigned = buyBaseInput({ ...quoteArgs(state), base, slippage: 1 });
    expect(n(unsigned.internalQuoteAmount)).toBeGreaterThan(n(signed.internalQuoteAmount));
    // A v1 buy (the SDK's own instructions) lands at the signed quote.
    const v1 = send(ledger, user, await PUMP_AMM_SDK.buyBaseInput(state, base, 1));
    expect(v1.err, v1.logs.join("\n")).toBeNull();
    expect(n(swapEvents(v1.logs)[0]!.data.quoteAmountIn)).toBe(n(signed.internalQuoteAmount));
    // The v1 trade paid its fees out: the kept fees and the virtual reserves did not move.
    expect(feeState(ledger, pool).virtualQuoteReserves).toBe(vqr);
    // A v2 sell too: the user receives quote_out - fees, the vault pays that plus the buyback part.
    // The SDK's buy unwrapped the user's WSOL account; the v2 sell needs it to exist.
    expect(send(ledger, user, wrap(user.publicKey, 1_000_000n)).err).toBeNull();
    const p = poolOf(ledger, pool);
    const vault0 = tokens(ledger, p.pool_quote_token_account);
    const user0 = tokens(ledger, wsol(user.publicKey));
    const sell = send(ledger, user, [
      swapIx(ledger, "sell_v2", pool, user.publicKey, {
        base_amount_in: 1_000_000_000_000n,
        min_quote_amount_out: 1n,
      }),
    ]);
    expect(sell.err, sell.logs.join("\n")).toBeNull();
    const s = swapEvents(sell.logs)[0]!.data;
    const effQ = vault0 + vqr;
    const poolBase = n(s.poolBaseTokenReserves);
    expect(n(s.quoteAmountOut)).toBe((effQ * 1_000_000_000_000n) / (poolBase + 1_000_000_000_000n));
    expect(tokens(ledger, wsol(user.publicKey)) - user0).toBe(n(s.userQuoteAmountOut));
    expect(vault0 - tokens(ledger, p.pool_quote_token_account)).toBe(
      n(s.userQuoteAmountOut) + n(s.buybackFee),
    );
    expect(n(s.virtualQuoteReserves)).toBe(vqr);
  });

  it("sweeps pay the kept fees out and leave the effective reserves (the price) unchanged", () => {
    const { ledger, pool, user } = poolWorld();
    const rec = send(ledger, user, [
      swapIx(ledger, "buy_v2", pool, user.publicKey, {
        base_amount_out: 5_000_000_000_000n,
        max_quote_amount_in: 50_000_000_000n,
      }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    const p = poolOf(ledger, pool);
    const kept = feeState(ledger, pool);
    const eff0 = tokens(ledger, p.pool_quote_token_account) + kept.virtualQuoteReserves;
    const payer = wallet(ledger, 1n);
    const recipient0 = tokens(ledger, wsol(FEE_RECIPIENTS[0]!));
    const sweep = send(ledger, payer, [
      poolSweepIx(ledger, "protocol", pool, payer.publicKey),
      poolSweepIx(ledger, "creator", pool, payer.publicKey),
    ]);
    expect(sweep.err, sweep.logs.join("\n")).toBeNull();
    expect(feeState(ledger, pool)).toEqual({ virtualQuoteReserves: 0n, protocolFees: 0n, creatorFees: 0n });
    expect(tokens(ledger, p.pool_quote_token_account)).toBe(eff0);
    expect(tokens(ledger, wsol(FEE_RECIPIENTS[0]!)) - recipient0).toBe(kept.protocolFees);
    const vaultAuthority = PublicKey.findProgramAddressSync(
      [Buffer.from("creator_vault"), p.coin_creator.toBuffer()],
      new PublicKey("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA"),
    )[0];
    expect(tokens(ledger, wsol(vaultAuthority))).toBe(kept.creatorFees);
    const events = eventsOf(sweep.logs).filter((e) => e.name === "SweepPoolFeeEvent");
    expect(events.map((e) => [e.data.amount, e.data.bucket])).toEqual([
      [kept.protocolFees, 0],
      [kept.creatorFees, 1],
    ]);
  });

  it("cashback pools refuse the v2 trades (6079); v1 still works there", async () => {
    const { ledger, pool, user } = poolWorld({ cashback: true });
    expectCustom(
      send(ledger, user, [
        swapIx(ledger, "buy_v2", pool, user.publicKey, {
          base_amount_out: 1_000_000n,
          max_quote_amount_in: 1_000_000_000n,
        }),
      ]),
      0,
      6079,
    );
    const state = await new OnlinePumpAmmSdk(connectionOf(ledger)).swapSolanaState(pool, user.publicKey);
    const v1 = send(ledger, user, await PUMP_AMM_SDK.buyBaseInput(state, new BN(1_000_000), 1));
    expect(v1.err, v1.logs.join("\n")).toBeNull();
  });

  it("the pool migrate_v2 opens after a synthetic migration trades on from where the buy stopped", () => {
    const ledger = upgradeLedger();
    const { mint } = createToken(ledger, { creator: Keypair.generate() });
    const buyer = wallet(ledger, 1_000n);
    const remaining = readCurve(ledger, mint)!.realTokenReserves;
    const crossing = send(ledger, buyer, [
      createUserAta(mint, buyer.publicKey),
      curveV3Ix("buy_v3", mint, buyer.publicKey, {
        amount: remaining + 7_000_000_000_000n,
        max_sol_cost: 500_000_000_000n,
      }),
    ]);
    expect(crossing.err, crossing.logs.join("\n")).toBeNull();
    const pcb = eventsOf(crossing.logs).find((e) => e.name === "PostCompleteBuyEvent")!.data;
    const migrate = send(ledger, buyer, [
      migrateV2Instruction(mint, buyer.publicKey, readGlobal(ledger).withdrawAuthority),
    ]);
    expect(migrate.err, migrate.logs.join("\n")).toBeNull();
    const pool = poolPda(0, poolAuthorityPda(mint), mint, NATIVE_MINT)[0];
    const user = wallet(ledger, 1_000n);
    expect(
      send(ledger, user, [createUserAta(mint, user.publicKey), ...wrap(user.publicKey, 10_000_000_000n)]).err,
    ).toBeNull();
    const out = 1_000_000_000_000n;
    const rec = send(ledger, user, [
      swapIx(ledger, "buy_v2", pool, user.publicKey, {
        base_amount_out: out,
        max_quote_amount_in: 10_000_000_000n,
      }),
    ]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    const d = swapEvents(rec.logs)[0]!.data;
    const [b, q] = [n(pcb.poolBaseReservesAfter), n(pcb.poolQuoteReservesAfter)];
    expect([n(d.poolBaseTokenReserves), n(d.poolQuoteTokenReserves)]).toEqual([b, q]);
    expect(n(d.quoteAmountIn)).toBe((q * out + b - out - 1n) / (b - out));
  });
});
