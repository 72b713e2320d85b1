/**
 * The direct TradeEvent decoder (trade-event-direct.ts) against the SDK path it replaces
 * (`curveTradeBySdk`, event-decoder.ts): the same `curve_trade` event (keys, order, values, types) for
 * trade events the localnet's programs log and for random bodies of the full layout encoded by the SDK
 * IDL's coder; and every body that is not exactly the full layout (cut, extended, a bad bool, string or
 * length) refused by the direct decoder and decoded by `decodeLaunchLogs` as the SDK alone decodes it.
 */
import { describe, expect, it } from "vitest";
import BN from "bn.js";
import { Keypair, PublicKey } from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { launchSdk } from "../../../src/launch/sdk.js";
import { launchProgram } from "../../../src/launch/programs-offline.js";
import { LAUNCH_PROGRAM_ID } from "../../../src/launch/programs.js";
import { decodeLaunchGlobal } from "../../../src/launch/state.js";
import { buildCurveBuyV3 } from "../../../src/launch/v3-instructions.js";
import { curveTradeBySdk, decodeLaunchLogs } from "../../../src/launch/events/event-decoder.js";
import type { LaunchEvent } from "../../../src/launch/events/launch-event.js";
import {
  DIRECT_TRADE_DECODE,
  decodeTradeEventDirect,
} from "../../../src/launch/events/trade-event-direct.js";
import { createLedger, type Ledger } from "../../../localnet/ledger/index.js";
import { emulatedPrograms, installGenesis, launchOperator } from "../../../localnet/programs/index.js";
import { GLOBAL_ADDRESS } from "../../../localnet/programs/launch/index.js";
import { big, funded, quoteArgs, sdkBuyIxs, sdkState, send } from "../../localnet/launch-fixture.js";
import { borshValues } from "../../helpers/borsh-values.js";

const LAUNCH = LAUNCH_PROGRAM_ID.toBase58();
const DISC = Buffer.from(
  (launchSdk.pumpIdl.events as unknown as { name: string; discriminator: number[] }[]).find(
    (e) => e.name === "TradeEvent",
  )!.discriminator,
);

/** A transaction's logs carrying one launch-program event of `body`. */
const logsOf = (body: Buffer) => [
  `Program ${LAUNCH} invoke [1]`,
  `Program data: ${Buffer.concat([DISC, body]).toString("base64")}`,
  `Program ${LAUNCH} success`,
];

/** What `decodeLaunchLogs` gives for `logsOf(body)` with the SDK decoder alone (a throw skips the event). */
function sdkOnly(body: Buffer): LaunchEvent[] {
  try {
    return [curveTradeBySdk(body)];
  } catch {
    return [];
  }
}

/** The direct decoder reads `body` and makes the SDK path's object exactly (keys in order, values, types). */
function expectDirect(body: Buffer, what: string): void {
  const theirs = curveTradeBySdk(body);
  const ours = decodeTradeEventDirect(body);
  expect(ours, `${what}: read directly`).not.toBeNull();
  expect(Object.keys(ours!), what).toEqual(Object.keys(theirs));
  expect(ours, what).toStrictEqual(theirs);
  expect(decodeLaunchLogs(logsOf(body)), what).toStrictEqual([theirs]);
}

/** The direct decoder refuses `body`, and the dispatcher decodes it as the SDK alone does. */
function expectFallback(body: Buffer, what: string): void {
  expect(decodeTradeEventDirect(body), `${what}: refused by the direct decoder`).toBeNull();
  expect(decodeLaunchLogs(logsOf(body)), what).toStrictEqual(sdkOnly(body));
}

/** The TradeEvent bodies (after the discriminator) in a transaction's logs, in order. */
function tradeBodies(logs: readonly string[]): Buffer[] {
  return logs
    .filter((l) => l.startsWith("Program data: "))
    .map((l) => Buffer.from(l.slice("Program data: ".length), "base64"))
    .filter((b) => b.subarray(0, 8).equals(DISC))
    .map((b) => b.subarray(8));
}

// ---- random bodies of the full layout, encoded by the SDK IDL's coder ----------------------------------

const NAMES = [
  "",
  "buy",
  "sell",
  "buy_exact_sol_in",
  "sell_v3",
  "köp",
  "日本語の取引",
  "🚀🌕",
  "a\u0000b",
  "\ufeffbom",
];

function generator(seed: number) {
  const { next, int, bytes, u64, i64, key, text, bool } = borshValues(seed, NAMES);
  return {
    next,
    int,
    bytes,
    /** A TradeEvent of random field values, as the SDK IDL's coder encodes it. */
    body(): Buffer {
      return launchProgram.coder.types.encode("tradeEvent", {
        mint: key(),
        solAmount: u64(),
        tokenAmount: u64(),
        isBuy: bool(),
        user: key(),
        timestamp: i64(),
        virtualSolReserves: u64(),
        virtualTokenReserves: u64(),
        realSolReserves: u64(),
        realTokenReserves: u64(),
        feeRecipient: key(),
        feeBasisPoints: u64(),
        fee: u64(),
        creator: key(),
        creatorFeeBasisPoints: u64(),
        creatorFee: u64(),
        trackVolume: bool(),
        totalUnclaimedTokens: u64(),
        totalClaimedTokens: u64(),
        currentSolVolume: u64(),
        lastUpdateTimestamp: i64(),
        ixName: text(),
        mayhemMode: bool(),
        cashbackFeeBasisPoints: u64(),
        cashback: u64(),
        buybackFeeBasisPoints: u64(),
        buybackFee: u64(),
        shareholders: Array.from({ length: int(6) }, () => ({ address: key(), shareBps: int(65536) })),
        quoteMint: key(),
        quoteAmount: u64(),
        virtualQuoteReserves: u64(),
        realQuoteReserves: u64(),
        holderRewardsBps: u64(),
        holderRewards: u64(),
      });
    },
  };
}

// Where the body's variable parts sit: ix_name's length prefix at 250 (the fixed fields before it), then
// after the string mayhem_mode and the four u64s (33 bytes) to the shareholders' count.
const IX_NAME_AT = 32 + 8 + 8 + 1 + 32 + 8 + 8 * 4 + 32 + 8 + 8 + 32 + 8 + 8 + 1 + 8 * 3 + 8;
const ixNameEnd = (body: Buffer) => IX_NAME_AT + 4 + body.readUInt32LE(IX_NAME_AT);
const holdersAt = (body: Buffer) => ixNameEnd(body) + 1 + 32;
// The SDK IDL's full layout ends after the shareholders, quote_mint and five u64s (quote amount and reserves,
// holder rewards); the October 2026 upgrade appends creator_fee_unclaimed after that.
const layoutLength = (body: Buffer) =>
  holdersAt(body) + 4 + body.readUInt32LE(holdersAt(body)) * 34 + 32 + 8 * 5;
const BOOL_OFFSETS = (body: Buffer) => [32 + 16, IX_NAME_AT - 8 * 4 - 1, ixNameEnd(body)];

// ---- real trade events from the localnet ------------------------------------------------------------------

interface Trade {
  name: string;
  logs: string[];
}

async function localnetTrades(): Promise<Trade[]> {
  const ledger: Ledger = createLedger({ programs: emulatedPrograms({ cashbackCreation: true }) });
  installGenesis(ledger, { cashbackCreation: true });
  const out: Trade[] = [];
  const buy = async (mint: PublicKey, user: Keypair, lamports: bigint, name: string) => {
    const s = sdkState(ledger, mint);
    const q = quoteArgs(s);
    const amount = launchSdk.getBuyTokenAmountFromSolAmount({ ...q, amount: new BN(lamports.toString()) });
    const cost = launchSdk.getBuySolAmountFromTokenAmount({ ...q, amount });
    const rec = send(ledger, user, await sdkBuyIxs(s, mint, user.publicKey, amount, cost, 1));
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    out.push({ name, logs: rec.logs });
    return big(amount);
  };
  const sell = async (mint: PublicKey, user: Keypair, amount: bigint, cashback: boolean, name: string) => {
    const s = sdkState(ledger, mint);
    const ixs = await launchSdk.PUMP_SDK.sellInstructions({
      global: s.global,
      bondingCurveAccountInfo: s.curveInfo,
      bondingCurve: s.curve,
      mint,
      user: user.publicKey,
      amount: new BN(amount.toString()),
      solAmount: new BN(1),
      slippage: 1,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      mayhemMode: s.curve.isMayhemMode,
      cashback,
    });
    const rec = send(ledger, user, ixs);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    out.push({ name, logs: rec.logs });
  };
  for (const kind of ["plain", "mayhem", "cashback"] as const) {
    const { mint } = launchOperator.createToken(ledger, {
      mayhem: kind === "mayhem",
      cashback: kind === "cashback",
    });
    const a = funded(ledger, 100n);
    const b = funded(ledger, 100n);
    const bought = await buy(mint, a, 1_500_000_000n, `${kind}: buy on a fresh curve`);
    await buy(mint, b, 3_000_000_000n, `${kind}: buy on a traded curve`);
    await sell(mint, a, bought / 3n, kind === "cashback", `${kind}: sell`);
    await sell(mint, a, bought - bought / 3n, kind === "cashback", `${kind}: sell of the rest`);
  }
  // A v3 buy: the live program appends creator_fee_unclaimed (8 bytes) past the SDK's layout.
  const { mint } = launchOperator.createToken(ledger, {});
  const user = funded(ledger, 100n);
  const global = decodeLaunchGlobal(ledger.getAccount(GLOBAL_ADDRESS)!.data);
  const rec = send(
    ledger,
    user,
    buildCurveBuyV3({
      global,
      mint,
      user: user.publicKey,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      amount: 20_000_000_000_000n,
      maxSolCost: 50_000_000_000n,
      createAta: true,
    }),
  );
  expect(rec.err, rec.logs.join("\n")).toBeNull();
  out.push({ name: "v3 buy", logs: rec.logs });
  return out;
}

let made: Promise<Trade[]> | undefined;
const tradesOnce = () => (made ??= localnetTrades());

describe("the direct TradeEvent decoder", () => {
  it("is the one in use (the installed SDK's IDL has the layout it walks)", () => {
    expect(DIRECT_TRADE_DECODE).toBe(true);
  });

  it("decodes the localnet's buys and sells as the SDK does (fresh, traded, mayhem, cashback)", async () => {
    const trades = await tradesOnce();
    const seen = { mayhem: false, cashback: false, buy: false, sell: false };
    for (const { name, logs } of trades) {
      const bodies = tradeBodies(logs);
      expect(bodies, name).toHaveLength(1);
      const body = bodies[0]!;
      const sdk = curveTradeBySdk(body);
      // The v3 buy carries the upgrade's creator_fee_unclaimed after the SDK IDL's layout; the others do not.
      expect(body.length - layoutLength(body), name).toBe(name === "v3 buy" ? 8 : 0);
      expectDirect(body, name);
      // The whole transaction's logs: the trade event is the SDK path's.
      expect(
        decodeLaunchLogs(logs).filter((e) => e.kind === "curve_trade"),
        name,
      ).toStrictEqual([sdk]);
      seen.mayhem ||= sdk.mayhemMode;
      seen.cashback ||= sdk.cashback > 0n;
      seen.buy ||= sdk.isBuy;
      seen.sell ||= !sdk.isBuy;
    }
    // The events are what they are named for.
    expect(seen).toEqual({ mayhem: true, cashback: true, buy: true, sell: true });
  });

  it("decodes random full-layout bodies as the SDK does (seeded: edges, strings, 0-5 shareholders)", () => {
    const g = generator(20261129);
    const holders = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const body = g.body();
      holders.add(body.readUInt32LE(holdersAt(body)));
      expectDirect(body, `case ${i}`);
    }
    expect([...holders].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("reads a body with the upgrade's 8-byte creator_fee_unclaimed; leaves every cut body and any other tail to the SDK", async () => {
    const g = generator(7);
    const [real] = tradeBodies((await tradesOnce())[1]!.logs);
    const bodies = [real!, g.body(), g.body(), g.body()];
    for (const [k, body] of bodies.entries()) {
      for (let length = 0; length < body.length; length++)
        expectFallback(body.subarray(0, length), `body ${k} cut to ${length}`);
      for (let extra = 1; extra <= 40; extra++) {
        const longer = Buffer.concat([body, g.bytes(extra)]);
        const what = `body ${k} and ${extra} trailing bytes`;
        if (body.length - layoutLength(body) + extra === 8) expectDirect(longer, what);
        else expectFallback(longer, what);
      }
    }
    // The SDK itself decodes a body missing its last 16 bytes (the holder-reward fields): the older layout.
    expect(sdkOnly(real!.subarray(0, real!.length - 16))).toHaveLength(1);
  });

  it("leaves bad bools, bad UTF-8 and lengths past the end to the SDK", () => {
    const g = generator(11);
    for (let i = 0; i < 20; i++) {
      const body = g.body();
      for (const at of BOOL_OFFSETS(body)) {
        expect(body[at]! <= 1, `bool at ${at}`).toBe(true);
        for (const v of [2, 3, 128, 255]) {
          const bad = Buffer.from(body);
          bad[at] = v;
          expectFallback(bad, `case ${i}: bool at ${at} = ${v}`);
        }
      }
      // ix_name's length one more (the fields after it shift, the walk ends past the body), and past the end.
      for (const delta of [1, 1000, 2 ** 32 - 1 - body.readUInt32LE(IX_NAME_AT)]) {
        const long = Buffer.from(body);
        long.writeUInt32LE(body.readUInt32LE(IX_NAME_AT) + delta, IX_NAME_AT);
        expectFallback(long, `case ${i}: ix_name length + ${delta}`);
      }
      // The shareholders' count past the end.
      for (const count of [6, 1000, 2 ** 32 - 1]) {
        const many = Buffer.from(body);
        many.writeUInt32LE(count, holdersAt(body));
        expectFallback(many, `case ${i}: ${count} shareholders`);
      }
    }
    // ix_name bytes that are not UTF-8 (the SDK reads them as U+FFFD; the direct decoder refuses them).
    const body = g.body();
    const length = body.readUInt32LE(IX_NAME_AT);
    const name = Buffer.from([0x62, 0xff, 0xc3, 0x28, 0xe2, 0x82]);
    const bad = Buffer.concat([
      body.subarray(0, IX_NAME_AT),
      Buffer.from(Uint32Array.of(name.length).buffer),
      name,
      body.subarray(IX_NAME_AT + 4 + length),
    ]);
    expect(sdkOnly(bad)).toHaveLength(1);
    expectFallback(bad, "ix_name not UTF-8");
  });
});
