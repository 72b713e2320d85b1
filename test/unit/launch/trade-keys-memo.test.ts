/**
 * The v3 curve and v2 pool builders keep their account lists (src/launch/trade-keys-memo.ts): every build must
 * equal a build without the memo (program, each key's bytes and flags, data bytes) whatever was built before it,
 * and a key the list depends on that the memo left out would show here as a list of another trade.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { Keypair, PublicKey, type AccountMeta, type TransactionInstruction } from "@solana/web3.js";
import { NATIVE_MINT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from "@solana/spl-token";
import {
  LAUNCH_EVENT_AUTHORITY,
  LAUNCH_FEE_CONFIG,
  LAUNCH_GLOBAL,
  SWAP_EVENT_AUTHORITY,
  SWAP_FEE_CONFIG,
  SWAP_GLOBAL_CONFIG,
  associatedTokenAddress,
  bondingCurveAddress,
  launchUserVolumeAccumulator,
  swapUserVolumeAccumulator,
} from "../../../src/launch/programs.js";
import type { LaunchGlobal, PoolState, SwapGlobalConfig } from "../../../src/launch/state.js";
import {
  TRADE_KEYS_CAPACITY,
  createTradeKeysMemo,
  tradeKeysMemo,
} from "../../../src/launch/trade-keys-memo.js";
import {
  buildUpgradeInstruction,
  upgradeAccountLayout,
  type UpgradeArgs,
} from "../../../src/launch/upgrade-idl.js";
import {
  buildCurveBuyExactQuoteInV3,
  buildCurveBuyV3,
  buildCurveSellV3,
} from "../../../src/launch/v3-instructions.js";
import {
  buildSwapBuyExactQuoteInV2,
  buildSwapBuyV2,
  buildSwapSellV2,
} from "../../../src/launch/swap-v2-instructions.js";
import { seededRandom as seeded } from "../../helpers/seeded-random.js";

// Keys of the module from one seed; each test reseeds (its own seed: no key of one test recurs in another), so a
// test's inputs do not depend on how far another one got.
let rnd = seeded(20261129);
const pickOf = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
const randomKey = (): PublicKey =>
  new PublicKey(Buffer.from(Array.from({ length: 32 }, () => (rnd() * 256) | 0)));
// A new instance of the same key (as a trade parses its user from text).
const twin = (k: PublicKey): PublicKey => new PublicKey(k.toBytes());

const Z = PublicKey.default;
// Five set buyback wallets among the eight slots: the builders pick among the set ones.
const BUYBACKS = [randomKey(), randomKey(), randomKey(), randomKey(), randomKey()];
const global = {
  buybackFeeRecipients: [BUYBACKS[0], Z, BUYBACKS[1], BUYBACKS[2], Z, BUYBACKS[3], BUYBACKS[4], Z],
} as unknown as LaunchGlobal; // only the buyback list matters to the v3 builders
const globalConfig = {
  buybackFeeRecipients: [Z, BUYBACKS[0], BUYBACKS[1], BUYBACKS[2], BUYBACKS[3], BUYBACKS[4], Z, Z],
} as unknown as SwapGlobalConfig;
/** A random source that makes the builders pick `BUYBACKS[i]`. */
const picking = (i: number) => () => (i + 0.5) / BUYBACKS.length;

const MINTS = [randomKey(), randomKey(), randomKey(), randomKey()];
const USERS = [randomKey(), randomKey(), Keypair.generate().publicKey, randomKey()];
const PROGRAMS = [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, randomKey()];

// The account records as the builders made them before the memo (v3-instructions.ts, swap-v2-instructions.ts).
function curveAccounts(mint: PublicKey, user: PublicKey, tokenProgram: PublicKey, buyback: PublicKey) {
  const curve = bondingCurveAddress(mint);
  return {
    global: LAUNCH_GLOBAL,
    base_mint: mint,
    quote_mint: NATIVE_MINT,
    base_token_program: tokenProgram,
    quote_token_program: TOKEN_PROGRAM_ID,
    bonding_curve: curve,
    associated_base_bonding_curve: associatedTokenAddress(curve, mint, tokenProgram),
    associated_quote_bonding_curve: associatedTokenAddress(curve, NATIVE_MINT, TOKEN_PROGRAM_ID),
    user,
    associated_base_user: associatedTokenAddress(user, mint, tokenProgram),
    associated_quote_user: associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID),
    user_volume_accumulator: launchUserVolumeAccumulator(user),
    fee_config: LAUNCH_FEE_CONFIG,
    buyback_fee_recipient: buyback,
    event_authority: LAUNCH_EVENT_AUTHORITY,
  };
}
function swapAccounts(
  poolAddress: PublicKey,
  pool: PoolState,
  user: PublicKey,
  tokenProgram: PublicKey,
  buyback: PublicKey,
) {
  return {
    pool: poolAddress,
    user,
    global_config: SWAP_GLOBAL_CONFIG,
    base_mint: pool.baseMint,
    quote_mint: NATIVE_MINT,
    user_base_token_account: associatedTokenAddress(user, pool.baseMint, tokenProgram),
    user_quote_token_account: associatedTokenAddress(user, NATIVE_MINT, TOKEN_PROGRAM_ID),
    pool_base_token_account: pool.poolBaseTokenAccount,
    pool_quote_token_account: pool.poolQuoteTokenAccount,
    base_token_program: tokenProgram,
    quote_token_program: TOKEN_PROGRAM_ID,
    user_volume_accumulator: swapUserVolumeAccumulator(user),
    fee_config: SWAP_FEE_CONFIG,
    buyback_fee_recipient: associatedTokenAddress(buyback, NATIVE_MINT, TOKEN_PROGRAM_ID),
    event_authority: SWAP_EVENT_AUTHORITY,
  };
}

/** programId, each key's bytes and flags, data: what must be equal. */
function shape(ix: TransactionInstruction) {
  return {
    programId: ix.programId.toBase58(),
    keys: ix.keys.map(
      (k: AccountMeta) => `${k.pubkey.toBase58()}:${k.isSigner ? "S" : "-"}${k.isWritable ? "W" : "-"}`,
    ),
    data: ix.data.toString("hex"),
  };
}

type SwapKind = "buy_v2" | "sell_v2" | "buy_exact_quote_in_v2";
/** A trade: its keys, the index of the buyback wallet the builder picks, its two amounts. */
interface Trade {
  user: PublicKey;
  tokenProgram: PublicKey;
  buyback: number;
  a: bigint;
  b: bigint;
}
type CurveCase = Trade & { kind: "buy_v3" | "sell_v3" | "buy_exact_quote_in_v3"; mint: PublicKey };
type SwapCase = Trade & { kind: SwapKind; poolAddress: PublicKey; pool: PoolState };

/** The memoized builder's trade instruction equals the one built from the record (no memo); returns it. */
function expectCurve(c: CurveCase): TransactionInstruction {
  const { mint, user, tokenProgram, a, b } = c;
  const common = { global, mint, user, tokenProgram, random: picking(c.buyback) };
  let built: TransactionInstruction[];
  let data: UpgradeArgs;
  if (c.kind === "buy_v3") {
    built = buildCurveBuyV3({ ...common, amount: a, maxSolCost: b, createAta: false });
    data = { amount: a, max_sol_cost: b, partial_fill: false };
  } else if (c.kind === "sell_v3") {
    built = buildCurveSellV3({ ...common, amount: a, minSolOutput: b });
    data = { amount: a, min_sol_output: b };
  } else {
    built = buildCurveBuyExactQuoteInV3({ ...common, spendable: a, minTokensOut: b, createAta: false });
    data = { spendable_quote_in: a, min_tokens_out: b, partial_fill: false };
  }
  expect(built).toHaveLength(1);
  const record = curveAccounts(mint, user, tokenProgram, BUYBACKS[c.buyback]!);
  expect(shape(built[0]!)).toEqual(shape(buildUpgradeInstruction("launch", c.kind, record, data)));
  return built[0]!;
}

function expectSwap(c: SwapCase): void {
  const { poolAddress, pool, user, tokenProgram, a, b } = c;
  const common = { globalConfig, poolAddress, pool, user, tokenProgram, random: picking(c.buyback) };
  let built: TransactionInstruction[];
  let data: UpgradeArgs;
  if (c.kind === "buy_v2") {
    built = buildSwapBuyV2({ ...common, baseOut: a, maxQuoteIn: b });
    data = { base_amount_out: a, max_quote_amount_in: b };
  } else if (c.kind === "sell_v2") {
    built = buildSwapSellV2({ ...common, baseIn: a, minQuoteOut: b });
    data = { base_amount_in: a, min_quote_amount_out: b };
  } else {
    built = buildSwapBuyExactQuoteInV2({ ...common, spendable: a, minBaseOut: b });
    data = { spendable_quote_in: a, min_base_amount_out: b };
  }
  // [WSOL create, (transfer, sync), base ATA create, trade, close]: the trade is second to last.
  const record = swapAccounts(poolAddress, pool, user, tokenProgram, BUYBACKS[c.buyback]!);
  const expected = buildUpgradeInstruction("launchswap", c.kind, record, data);
  expect(shape(built[built.length - 2]!)).toEqual(shape(expected));
}

const amount = (): bigint => BigInt(Math.floor(rnd() * 2 ** 40)) * BigInt(1 + Math.floor(rnd() * 1000));

const poolOf = (baseMint: PublicKey, base: PublicKey, quote: PublicKey): PoolState =>
  ({
    baseMint,
    quoteMint: NATIVE_MINT,
    poolBaseTokenAccount: base,
    poolQuoteTokenAccount: quote,
  }) as unknown as PoolState;

describe("trade account lists kept between trades", () => {
  let seed = 1;
  beforeEach(() => {
    rnd = seeded(seed++);
  });

  it("v3 curve trades equal a build without the memo, over seeded random keys (repeated and new)", () => {
    const hits = tradeKeysMemo.hits;
    for (let i = 0; i < 300; i++) {
      const fresh = rnd() < 0.1;
      const user = fresh ? randomKey() : pickOf(USERS);
      expectCurve({
        kind: pickOf(["buy_v3", "sell_v3", "buy_exact_quote_in_v3"] as const),
        mint: rnd() < 0.1 ? randomKey() : pickOf(MINTS),
        // Half the time a new instance of the same key: a trade parses its user per request.
        user: rnd() < 0.5 ? twin(user) : user,
        tokenProgram: pickOf(PROGRAMS),
        buyback: Math.floor(rnd() * BUYBACKS.length),
        a: amount(),
        b: amount(),
      });
    }
    // Most builds took a kept list (4 × 4 × 3 combinations, plus new keys).
    expect(tradeKeysMemo.hits - hits).toBeGreaterThan(150);
  });

  it("v2 pool trades equal a build without the memo, whichever pool keys change (held keys included)", () => {
    // Two pools, each with its own base mint and vaults; a fifth of the trades change one of the three.
    const POOLS = [0, 1].map(() => ({ address: randomKey(), keys: [randomKey(), randomKey(), randomKey()] }));
    const hits = tradeKeysMemo.hits;
    for (let i = 0; i < 300; i++) {
      const p = pickOf(POOLS);
      const keys = p.keys.map(twin);
      if (rnd() < 0.2) keys[Math.floor(rnd() * 3)] = rnd() < 0.5 ? randomKey() : twin(pickOf(POOLS).keys[0]!);
      // Each of the pool's keys independently: a memo that left one out would hand back another pool's list.
      expectSwap({
        kind: pickOf(["buy_v2", "sell_v2", "buy_exact_quote_in_v2"] as const),
        poolAddress: twin(p.address),
        pool: poolOf(keys[0]!, keys[1]!, keys[2]!),
        user: rnd() < 0.5 ? twin(pickOf(USERS)) : pickOf(USERS),
        tokenProgram: pickOf(PROGRAMS),
        buyback: Math.floor(rnd() * BUYBACKS.length),
        a: amount(),
        b: amount(),
      });
    }
    expect(tradeKeysMemo.hits - hits).toBeGreaterThan(120);
  });

  it("hits after a trade of another user and of another token program, and with new instances of equal keys", () => {
    const mint = randomKey();
    const [u1, u2] = [randomKey(), randomKey()];
    const base = { kind: "sell_v3" as const, mint, buyback: 0, a: 5n, b: 4n };
    expectCurve({ ...base, user: u1, tokenProgram: TOKEN_2022_PROGRAM_ID });
    let misses = tradeKeysMemo.misses;
    expectCurve({ ...base, user: u2, tokenProgram: TOKEN_2022_PROGRAM_ID }); // another user: a list of its own
    expect(tradeKeysMemo.misses).toBe(misses + 1);
    expectCurve({ ...base, user: u1, tokenProgram: TOKEN_PROGRAM_ID }); // another token program: one of its own
    expect(tradeKeysMemo.misses).toBe(misses + 2);
    misses = tradeKeysMemo.misses;
    const hits = tradeKeysMemo.hits;
    // The first trade again, every key a new instance, another buyback recipient and amounts: a hit.
    expectCurve({
      ...base,
      mint: twin(mint),
      user: twin(u1),
      tokenProgram: twin(TOKEN_2022_PROGRAM_ID),
      buyback: 3,
      a: 7n,
      b: 6n,
    });
    // A buy after the sell shares its list (same account layout).
    expectCurve({ ...base, kind: "buy_v3", user: twin(u1), tokenProgram: TOKEN_2022_PROGRAM_ID });
    expectCurve({ ...base, kind: "buy_exact_quote_in_v3", user: u1, tokenProgram: TOKEN_2022_PROGRAM_ID });
    expect(tradeKeysMemo.hits).toBe(hits + 3);
    expect(tradeKeysMemo.misses).toBe(misses);

    // The pool the same way, its keys new instances on every trade (as a decoded pool's are).
    const [poolAddress, baseMint, vaultB, vaultQ] = [randomKey(), randomKey(), randomKey(), randomKey()];
    const swap = (user: PublicKey, tokenProgram: PublicKey, kind: SwapKind = "sell_v2"): SwapCase => ({
      kind,
      poolAddress: twin(poolAddress),
      pool: poolOf(twin(baseMint), twin(vaultB), twin(vaultQ)),
      user,
      tokenProgram,
      buyback: 1,
      a: 9n,
      b: 8n,
    });
    expectSwap(swap(u1, TOKEN_2022_PROGRAM_ID));
    expectSwap(swap(u2, TOKEN_2022_PROGRAM_ID));
    expectSwap(swap(u1, TOKEN_PROGRAM_ID));
    const swapHits = tradeKeysMemo.hits;
    expectSwap(swap(twin(u1), TOKEN_2022_PROGRAM_ID, "buy_v2"));
    expect(tradeKeysMemo.hits).toBe(swapHits + 1);
  });

  it("shares one layout among a program's three trades, and none with the other program or the sweeps", () => {
    const v3 = ["buy_v3", "sell_v3", "buy_exact_quote_in_v3"].map((n) => upgradeAccountLayout("launch", n));
    const v2 = ["buy_v2", "sell_v2", "buy_exact_quote_in_v2"].map((n) =>
      upgradeAccountLayout("launchswap", n),
    );
    expect(new Set(v3).size).toBe(1);
    expect(new Set(v2).size).toBe(1);
    expect(v3[0]).not.toBe(v2[0]);
    expect(v3[0]).toHaveLength(1);
    const sweeps = [
      upgradeAccountLayout("launch", "sweep_protocol_fee"),
      upgradeAccountLayout("launchswap", "sweep_creator_fee"),
    ];
    expect(sweeps).not.toContain(v3[0]);
    expect(sweeps).not.toContain(v2[0]);
  });

  it("gives each instruction an array of its own: a caller that replaces a slot changes no later build", () => {
    const c: CurveCase = {
      kind: "buy_v3",
      mint: randomKey(),
      user: randomKey(),
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      buyback: 2,
      a: 3n,
      b: 2n,
    };
    const first = expectCurve(c);
    // What bench/bundle-legs.ts and the localnet refusal tests do to a built instruction.
    first.keys[10] = { ...first.keys[10]!, pubkey: first.keys[7]!.pubkey };
    first.keys[13] = { pubkey: PublicKey.unique(), isSigner: false, isWritable: true };
    // The kept metas are frozen: changing one in place throws instead of reaching other trades.
    expect(() => {
      (first.keys[0] as { isWritable: boolean }).isWritable = true;
    }).toThrow(TypeError);
    expectCurve(c);
  });

  it("holds its bound, drops the least recently used entry first and rebuilds when a held key differs", () => {
    expect(tradeKeysMemo.capacity).toBe(TRADE_KEYS_CAPACITY);
    expect(tradeKeysMemo.size).toBeLessThanOrEqual(TRADE_KEYS_CAPACITY);
    const memo = createTradeKeysMemo(3);
    const builds: string[] = [];
    const meta = (k: PublicKey): AccountMeta => ({ pubkey: k, isSigner: false, isWritable: true });
    const get = (key: string, held?: PublicKey[]) =>
      memo.metas(
        key,
        () => {
          builds.push(key);
          return [meta(held?.[0] ?? Z)];
        },
        held,
      );
    get("a");
    get("b");
    get("c");
    get("a"); // a is now the most recent: b is the oldest
    get("d");
    expect(memo.size).toBe(3);
    expect(builds).toEqual(["a", "b", "c", "d"]);
    get("a");
    get("c");
    get("d");
    expect(builds).toEqual(["a", "b", "c", "d"]);
    get("b"); // dropped: built again (and a, the oldest now, goes)
    expect(builds).toEqual(["a", "b", "c", "d", "b"]);
    expect(memo.size).toBe(3);
    expect([memo.hits, memo.misses]).toEqual([4, 5]);

    const [k1, k2] = [randomKey(), randomKey()];
    expect(get("h", [k1])[0]!.pubkey.equals(k1)).toBe(true);
    expect(get("h", [twin(k1)])[0]!.pubkey.equals(k1)).toBe(true); // equal bytes: kept
    expect(get("h", [k2])[0]!.pubkey.equals(k2)).toBe(true); // another key: rebuilt
    expect(get("h", [k1])[0]!.pubkey.equals(k1)).toBe(true);
    expect(builds.filter((b) => b === "h")).toHaveLength(3);
    expect(memo.size).toBe(3);
    expect(() => createTradeKeysMemo(0)).toThrow(RangeError);
  });
});
