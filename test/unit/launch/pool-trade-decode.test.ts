/**
 * The direct BuyEvent / SellEvent decoders (pool-trade-direct.ts) against the SDK path they replace
 * (`poolBuyBySdk` / `poolSellBySdk`, event-decoder.ts): the same `pool_trade` event (keys, order, values,
 * types) for the pool trades the localnet's swap program logs (v1 trades with the SDK IDL's layout, v2 trades
 * with the October 2026 upgrade's 24-byte tail) and for random bodies encoded by the swap SDK IDL's coder;
 * and every other body (cut, another tail, a bad bool or string) refused by the direct decoders and decoded by
 * `decodeLaunchLogs` as the SDK alone decodes it.
 */
import { describe, expect, it } from "vitest";
import BN from "bn.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createSyncNativeInstruction,
  getAssociatedTokenAddressSync,
  NATIVE_MINT,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { Keypair, PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { launchSwapSdk } from "../../../src/launch/sdk.js";
import { LAUNCH_SWAP_PROGRAM_ID } from "../../../src/launch/programs.js";
import { decodeLaunchLogs, poolBuyBySdk, poolSellBySdk } from "../../../src/launch/events/event-decoder.js";
import type { LaunchEvent, PoolTradeEvent } from "../../../src/launch/events/launch-event.js";
import {
  DIRECT_POOL_BUY_DECODE,
  DIRECT_POOL_SELL_DECODE,
  poolBuyDirect,
  poolSellDirect,
} from "../../../src/launch/events/pool-trade-direct.js";
import { completeCurve, createToken } from "../../../localnet/programs/launch/index.js";
import { migrateCurve } from "../../../localnet/programs/launchswap/admin.js";
import { SWAP_CODER } from "../../../localnet/programs/launchswap/codec.js";
import { send } from "../../localnet/launch-fixture.js";
import { connectionOf } from "../../localnet/launchswap-fixture.js";
import {
  createUserAta,
  fixtureIx,
  swapV2Keys,
  upgradeLedger,
  wallet,
} from "../../localnet/upgrade-fixture.js";
import { borshValues } from "../../helpers/borsh-values.js";

const { OnlinePumpAmmSdk, PUMP_AMM_SDK } = launchSwapSdk;
const SWAP = LAUNCH_SWAP_PROGRAM_ID.toBase58();
type Side = "BuyEvent" | "SellEvent";
const discOf = (name: Side) =>
  Buffer.from(
    (
      launchSwapSdk.pumpAmmJson as unknown as { events: { name: string; discriminator: number[] }[] }
    ).events.find((e) => e.name === name)!.discriminator,
  );
const DISC = { BuyEvent: discOf("BuyEvent"), SellEvent: discOf("SellEvent") };
const direct = { BuyEvent: poolBuyDirect, SellEvent: poolSellDirect };
const bySdk = { BuyEvent: poolBuyBySdk, SellEvent: poolSellBySdk };

/** A transaction's logs carrying one swap-program event of `body`. */
const logsOf = (name: Side, body: Buffer) => [
  `Program ${SWAP} invoke [1]`,
  `Program data: ${Buffer.concat([DISC[name], body]).toString("base64")}`,
  `Program ${SWAP} success`,
];

/** What `decodeLaunchLogs` gives for `logsOf(body)` with the SDK decoder alone (a throw skips the event). */
function sdkOnly(name: Side, body: Buffer): LaunchEvent[] {
  try {
    return [bySdk[name](body)];
  } catch {
    return [];
  }
}

/** The direct decoder reads `body` and makes the SDK path's object exactly (keys in order, values, types). */
function expectDirect(name: Side, body: Buffer, what: string): PoolTradeEvent {
  const theirs = bySdk[name](body);
  const ours = direct[name](body);
  expect(ours, `${what}: read directly`).not.toBeNull();
  expect(Object.keys(ours!), what).toEqual(Object.keys(theirs));
  expect(ours, what).toStrictEqual(theirs);
  expect(decodeLaunchLogs(logsOf(name, body)), what).toStrictEqual([theirs]);
  return theirs;
}

/** The direct decoder refuses `body`, and the dispatcher decodes it as the SDK alone does. */
function expectFallback(name: Side, body: Buffer, what: string): void {
  expect(direct[name](body), `${what}: refused by the direct decoder`).toBeNull();
  expect(decodeLaunchLogs(logsOf(name, body)), what).toStrictEqual(sdkOnly(name, body));
}

/** The BuyEvent / SellEvent bodies (after the discriminator) in a transaction's logs, in order. */
function swapBodies(logs: readonly string[]): { name: Side; body: Buffer }[] {
  return logs
    .filter((l) => l.startsWith("Program data: "))
    .map((l) => Buffer.from(l.slice("Program data: ".length), "base64"))
    .flatMap((b) =>
      (["BuyEvent", "SellEvent"] as const)
        .filter((name) => b.subarray(0, 8).equals(DISC[name]))
        .map((name) => ({ name, body: b.subarray(8) })),
    );
}

// Layouts of the swap SDK IDL's events: BuyEvent's ix_name length prefix at 393 (14 u64/i64, 7 keys, two u64,
// track_volume, five u64/i64 before it), then four u64, the i128, can_boost and base_supply (57 bytes);
// SellEvent is fixed: 14 u64/i64, 7 keys, six u64, the i128, can_boost, base_supply.
const IX_NAME_AT = 8 * 14 + 32 * 7 + 8 * 2 + 1 + 8 * 5;
const ixNameEnd = (body: Buffer) => IX_NAME_AT + 4 + body.readUInt32LE(IX_NAME_AT);
const SELL_LENGTH = 8 * 14 + 32 * 7 + 8 * 6 + 16 + 1 + 8;
const layoutLength = (name: Side, body: Buffer) => (name === "BuyEvent" ? ixNameEnd(body) + 57 : SELL_LENGTH);
const BOOL_OFFSETS = (name: Side, body: Buffer) =>
  name === "BuyEvent" ? [8 * 14 + 32 * 7 + 16, ixNameEnd(body) + 48] : [SELL_LENGTH - 9];
/** What the October 2026 upgrade's v2 swaps append: holder_rewards_bps, holder_rewards, creator_fee_unclaimed. */
const TAIL = 24;

// ---- random bodies of the full layout, encoded by the swap SDK IDL's coder --------------------------------

const NAMES = ["", "buy", "buy_v2", "buy_exact_quote_in_v2", "köp", "日本語", "🚀🌕", "a\u0000b"];

function generator(seed: number) {
  const { int, bytes, u64, i64, i128, key, text, bool } = borshValues(seed, NAMES);
  const common = () => ({
    timestamp: i64(),
    user_base_token_reserves: u64(),
    user_quote_token_reserves: u64(),
    pool_base_token_reserves: u64(),
    pool_quote_token_reserves: u64(),
    lp_fee_basis_points: u64(),
    lp_fee: u64(),
    protocol_fee_basis_points: u64(),
    protocol_fee: u64(),
    pool: key(),
    user: key(),
    user_base_token_account: key(),
    user_quote_token_account: key(),
    protocol_fee_recipient: key(),
    protocol_fee_recipient_token_account: key(),
    coin_creator: key(),
    coin_creator_fee_basis_points: u64(),
    coin_creator_fee: u64(),
    cashback_fee_basis_points: u64(),
    cashback: u64(),
    buyback_fee_basis_points: u64(),
    buyback_fee: u64(),
    virtual_quote_reserves: i128(),
    can_boost: bool(),
    base_supply: u64(),
  });
  return {
    int,
    bytes,
    /** An event of random field values, as the swap SDK IDL's coder encodes it. */
    body(name: Side): Buffer {
      if (name === "SellEvent")
        return SWAP_CODER.types.encode("SellEvent", {
          ...common(),
          base_amount_in: u64(),
          min_quote_amount_out: u64(),
          quote_amount_out: u64(),
          quote_amount_out_without_lp_fee: u64(),
          user_quote_amount_out: u64(),
        });
      return SWAP_CODER.types.encode("BuyEvent", {
        ...common(),
        base_amount_out: u64(),
        max_quote_amount_in: u64(),
        quote_amount_in: u64(),
        quote_amount_in_with_lp_fee: u64(),
        user_quote_amount_in: u64(),
        track_volume: bool(),
        total_unclaimed_tokens: u64(),
        total_claimed_tokens: u64(),
        current_sol_volume: u64(),
        last_update_timestamp: i64(),
        min_base_amount_out: u64(),
        ix_name: text(),
      });
    },
  };
}

// ---- real pool trades from the localnet (2026-10 programs: v1 and v2 swaps) --------------------------------

interface Trade {
  name: string;
  v2: boolean;
  logs: string[];
}

const wsol = (owner: PublicKey) => getAssociatedTokenAddressSync(NATIVE_MINT, owner, true, TOKEN_PROGRAM_ID);
/** Wraps `lamports` into the owner's WSOL account (created when missing). */
const wrap = (owner: PublicKey, lamports: bigint): TransactionInstruction[] => [
  createAssociatedTokenAccountIdempotentInstruction(owner, wsol(owner), owner, NATIVE_MINT, TOKEN_PROGRAM_ID),
  SystemProgram.transfer({ fromPubkey: owner, toPubkey: wsol(owner), lamports }),
  createSyncNativeInstruction(wsol(owner), TOKEN_PROGRAM_ID),
];

async function localnetTrades(): Promise<Trade[]> {
  const out: Trade[] = [];
  for (const cashback of [false, true]) {
    const ledger = upgradeLedger();
    const { mint } = createToken(ledger, { creator: Keypair.generate(), cashback });
    completeCurve(ledger, mint);
    const { pool } = migrateCurve(ledger, mint);
    const user = wallet(ledger, 1_000n);
    const ok = (name: string, v2: boolean, rec: { err: unknown; logs: string[] }) => {
      expect(rec.err, rec.logs.join("\n")).toBeNull();
      out.push({ name, v2, logs: rec.logs });
    };
    const fund = send(ledger, user, [
      createUserAta(mint, user.publicKey),
      ...wrap(user.publicKey, 100_000_000_000n),
    ]);
    expect(fund.err, fund.logs.join("\n")).toBeNull();
    const tag = cashback ? "cashback pool" : "pool";
    const v2 = (ix: string, args: Record<string, bigint>) =>
      send(ledger, user, [fixtureIx("launchswap", ix, swapV2Keys(ledger, pool, user.publicKey), args)]);
    if (!cashback) {
      // Cashback coins refuse the v2 trades (6079): v1 only there.
      ok(
        `${tag}: buy_v2`,
        true,
        v2("buy_v2", { base_amount_out: 3_000_000_000_000n, max_quote_amount_in: 50_000_000_000n }),
      );
      ok(
        `${tag}: buy_exact_quote_in_v2`,
        true,
        v2("buy_exact_quote_in_v2", { spendable_quote_in: 5_000_000_000n, min_base_amount_out: 1n }),
      );
      ok(
        `${tag}: sell_v2`,
        true,
        v2("sell_v2", { base_amount_in: 1_000_000_000_000n, min_quote_amount_out: 1n }),
      );
    }
    const sdk = new OnlinePumpAmmSdk(connectionOf(ledger));
    let state = await sdk.swapSolanaState(pool, user.publicKey);
    ok(
      `${tag}: v1 buy`,
      false,
      send(ledger, user, await PUMP_AMM_SDK.buyBaseInput(state, new BN("2000000000000"), 1)),
    );
    state = await sdk.swapSolanaState(pool, user.publicKey);
    ok(
      `${tag}: v1 sell`,
      false,
      send(ledger, user, await PUMP_AMM_SDK.sellBaseInput(state, new BN("1500000000000"), 1)),
    );
  }
  return out;
}

let made: Promise<Trade[]> | undefined;
const tradesOnce = () => (made ??= localnetTrades());

describe("the direct BuyEvent / SellEvent decoders", () => {
  it("are the ones in use (both installed SDKs' IDLs have the layouts they walk)", () => {
    expect(DIRECT_POOL_BUY_DECODE).toBe(true);
    expect(DIRECT_POOL_SELL_DECODE).toBe(true);
  });

  it("decode the localnet's v1 and v2 pool buys and sells as the SDK does", async () => {
    const trades = await tradesOnce();
    const seen = new Set<string>();
    for (const { name, v2, logs } of trades) {
      const events = swapBodies(logs);
      expect(events, name).toHaveLength(1);
      const { name: side, body } = events[0]!;
      // v2 trades carry the upgrade's 24 bytes past the swap SDK IDL's layout; v1 trades nothing.
      expect(body.length - layoutLength(side, body), name).toBe(v2 ? TAIL : 0);
      const sdk = expectDirect(side, body, name);
      expect(
        decodeLaunchLogs(logs).filter((e) => e.kind === "pool_trade"),
        name,
      ).toStrictEqual([sdk]);
      seen.add(`${v2 ? "v2" : "v1"} ${sdk.isBuy ? "buy" : "sell"}${sdk.cashback > 0n ? " cashback" : ""}`);
    }
    expect([...seen].sort()).toEqual([
      "v1 buy",
      "v1 buy cashback",
      "v1 sell",
      "v1 sell cashback",
      "v2 buy",
      "v2 sell",
    ]);
  });

  it("decode random full-layout bodies as the SDK does, with and without the upgrade's tail (seeded)", () => {
    const g = generator(20261129);
    for (const name of ["BuyEvent", "SellEvent"] as const) {
      const negative = { yes: false, no: false };
      for (let i = 0; i < 300; i++) {
        const body = g.body(name);
        expect(body.length, `${name} ${i}`).toBe(layoutLength(name, body));
        // virtual_quote_reserves (i128) ends 9 bytes before the layout does: its top byte gives the sign.
        negative[body[layoutLength(name, body) - 10]! >= 0x80 ? "yes" : "no"] = true;
        expectDirect(name, body, `${name} ${i}`);
        expectDirect(name, Buffer.concat([body, g.bytes(TAIL)]), `${name} ${i} with the tail`);
      }
      expect(negative, name).toEqual({ yes: true, no: true });
    }
  });

  it("leave every cut body and every other tail length to the SDK", async () => {
    const g = generator(7);
    const real = (await tradesOnce()).filter((t) => !t.v2).map((t) => swapBodies(t.logs)[0]!);
    const bodies = [
      ...real,
      ...(["BuyEvent", "SellEvent"] as const).map((name) => ({ name, body: g.body(name) })),
    ];
    for (const [k, { name, body }] of bodies.entries()) {
      for (let length = 0; length < body.length; length++)
        expectFallback(name, body.subarray(0, length), `${name} ${k} cut to ${length}`);
      for (let extra = 1; extra <= 40; extra++) {
        const longer = Buffer.concat([body, g.bytes(extra)]);
        const what = `${name} ${k} and ${extra} trailing bytes`;
        if (extra === TAIL) expectDirect(name, longer, what);
        else expectFallback(name, longer, what);
      }
    }
  });

  it("leave bad bools, bad UTF-8 and string lengths past the end to the SDK", () => {
    const g = generator(11);
    for (const name of ["BuyEvent", "SellEvent"] as const) {
      for (let i = 0; i < 20; i++) {
        const body = g.body(name);
        for (const tail of [0, TAIL]) {
          const full = Buffer.concat([body, g.bytes(tail)]);
          for (const at of BOOL_OFFSETS(name, full)) {
            expect(full[at]! <= 1, `bool at ${at}`).toBe(true);
            for (const v of [2, 3, 128, 255]) {
              const bad = Buffer.from(full);
              bad[at] = v;
              expectFallback(name, bad, `${name} ${i}: bool at ${at} = ${v}`);
            }
          }
        }
        if (name === "SellEvent") continue;
        for (const delta of [1, 1000, 2 ** 32 - 1 - body.readUInt32LE(IX_NAME_AT)]) {
          const long = Buffer.from(body);
          long.writeUInt32LE(body.readUInt32LE(IX_NAME_AT) + delta, IX_NAME_AT);
          expectFallback(name, long, `${name} ${i}: ix_name length + ${delta}`);
        }
      }
    }
    const body = g.body("BuyEvent");
    const name = Buffer.from([0x62, 0xff, 0xc3, 0x28, 0xe2, 0x82]);
    const bad = Buffer.concat([
      body.subarray(0, IX_NAME_AT),
      Buffer.from(Uint32Array.of(name.length).buffer),
      name,
      body.subarray(ixNameEnd(body)),
    ]);
    expect(sdkOnly("BuyEvent", bad)).toHaveLength(1);
    expectFallback("BuyEvent", bad, "ix_name not UTF-8");
  });
});
