/**
 * The direct bonding-curve decoder (`decodeBondingCurve`, state.ts) against the SDK's own
 * (`PumpSdk.decodeBondingCurve` through `toBigints`): the same fields, values and types, and the same
 * refusals, on curves the localnet's programs write (both generations), on every historical length the SDK
 * zero-pads, on random field values encoded by the SDK IDL's coder and on random bytes of every length.
 */
import { describe, expect, it } from "vitest";
import BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import {
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
} from "@solana/spl-token";
import { launchSdk } from "../../../src/launch/sdk.js";
import { launchProgram } from "../../../src/launch/programs-offline.js";
import {
  DIRECT_CURVE_DECODE,
  decodeBondingCurve,
  decodeLaunchGlobal,
  toBigints,
  toBuffer,
  type RawData,
} from "../../../src/launch/state.js";
import { buildCurveBuyV3 } from "../../../src/launch/v3-instructions.js";
import { createLedger, type Ledger } from "../../../localnet/ledger/index.js";
import { emulatedPrograms, installGenesis, launchOperator } from "../../../localnet/programs/index.js";
import { PROGRAM_GENERATIONS, type ProgramGeneration } from "../../../localnet/programs/generation.js";
import { buildBuyIx } from "../../../localnet/programs/launch/ix-builders.js";
import {
  curveAddress,
  FEE_RECIPIENTS,
  GLOBAL_ADDRESS,
  readCurve,
  RESERVED_FEE_RECIPIENTS,
} from "../../../localnet/programs/launch/index.js";
import { seededRandom as random } from "../../helpers/seeded-random.js";

type Outcome = { value: Record<string, unknown> } | { error: string };

function outcome(decode: () => unknown): Outcome {
  try {
    return { value: decode() as Record<string, unknown> };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** What the SDK's decoder makes of `data`, amounts as bigints (the decoder this one replaces). */
const bySdk = (data: RawData) =>
  outcome(() =>
    toBigints(
      launchSdk.PUMP_SDK.decodeBondingCurve({
        data: toBuffer(data),
        executable: false,
        lamports: 0,
        owner: launchProgram.programId,
      }),
    ),
  );

/**
 * Both decoders agree on `data`: both throw the same message, or both return the same fields in the same
 * order, each of the same type (bigint, boolean, PublicKey) and value (PublicKeys by `.equals`).
 */
function expectSame(data: RawData, what: string): Outcome {
  const theirs = bySdk(data);
  const ours = outcome(() => decodeBondingCurve(data));
  if ("error" in theirs || "error" in ours) {
    expect(ours, what).toEqual(theirs);
    return theirs;
  }
  expect(Object.keys(ours.value), what).toEqual(Object.keys(theirs.value));
  for (const [k, v] of Object.entries(theirs.value)) {
    const mine = ours.value[k];
    if (v instanceof PublicKey) {
      expect(mine, `${what}: ${k}`).toBeInstanceOf(PublicKey);
      expect((mine as PublicKey).equals(v), `${what}: ${k}`).toBe(true);
    } else {
      expect(["bigint", "boolean"], `${what}: ${k} of the SDK`).toContain(typeof v);
      expect(typeof mine, `${what}: ${k}`).toBe(typeof v);
      expect(mine, `${what}: ${k}`).toBe(v);
    }
  }
  return theirs;
}

const bytesOf = (next: () => number, n: number) =>
  Buffer.from(Array.from({ length: n }, () => (next() * 256) | 0));
const u64Of = (next: () => number) => new BN(bytesOf(next, 8), "le");

/** A curve with random field values, encoded by the SDK IDL's coder (125 bytes). */
function randomCurve(next: () => number): Promise<Buffer> {
  const bool = () => next() < 0.5;
  return launchProgram.coder.accounts.encode("bondingCurve", {
    virtualTokenReserves: u64Of(next),
    virtualQuoteReserves: u64Of(next),
    realTokenReserves: u64Of(next),
    realQuoteReserves: u64Of(next),
    tokenTotalSupply: u64Of(next),
    complete: bool(),
    creator: new PublicKey(bytesOf(next, 32)),
    isMayhemMode: bool(),
    isCashbackCoin: bool(),
    quoteMint: new PublicKey(bytesOf(next, 32)),
    creatorFeeBps: u64Of(next),
    canEditCreatorFee: bool(),
    isHolderReward: bool(),
  });
}

/** `head` cut or extended (with random bytes) to `length`. */
function sized(head: Buffer, length: number, next: () => number): Buffer {
  if (length <= head.length) return Buffer.from(head.subarray(0, length));
  return Buffer.concat([head, bytesOf(next, length - head.length)]);
}

const HISTORICAL_LENGTHS = [49, 81, 82, 83, 115, 124];
const LIVE_LENGTHS = [125, 151, 166, 256];

describe("the direct bonding-curve decoder", () => {
  it("is the one in use (the installed SDK's IDL has the layout it reads)", () => {
    expect(DIRECT_CURVE_DECODE).toBe(true);
  });

  describe.each(PROGRAM_GENERATIONS)("curves the %s localnet writes", (generation: ProgramGeneration) => {
    // Real accounts: create_v2 (plain, mayhem, cashback), legacy buys, a v3 buy (2026-10: grows the account and
    // fills the fields past the SDK's 125 bytes), a completed curve and a migrated one.
    async function curves(): Promise<{ name: string; data: Buffer }[]> {
      const ledger: Ledger = createLedger({
        programs: emulatedPrograms({ cashbackCreation: true, generation }),
      });
      installGenesis(ledger, { cashbackCreation: true });
      const account = (mint: PublicKey) => Buffer.from(ledger.getAccount(curveAddress(mint))!.data);
      const out: { name: string; data: Buffer }[] = [];
      const buy = (mint: PublicKey, amount: bigint) => {
        const curve = readCurve(ledger, mint)!;
        const user = PublicKey.unique();
        ledger.fund(user, 100_000_000_000n);
        ledger.execute([
          createAssociatedTokenAccountIdempotentInstruction(
            user,
            getAssociatedTokenAddressSync(mint, user, true, TOKEN_2022_PROGRAM_ID),
            user,
            mint,
            TOKEN_2022_PROGRAM_ID,
          ),
          buildBuyIx({
            mint,
            user,
            creator: curve.creator,
            feeRecipient: (curve.isMayhemMode ? RESERVED_FEE_RECIPIENTS : FEE_RECIPIENTS)[0]!,
            amount,
            limit: 50_000_000_000n,
          }),
        ]);
      };
      for (const kind of ["plain", "mayhem", "cashback"] as const) {
        const { mint } = launchOperator.createToken(ledger, {
          mayhem: kind === "mayhem",
          cashback: kind === "cashback",
        });
        out.push({ name: `${kind}: fresh`, data: account(mint) });
        buy(mint, 30_000_000_000_000n);
        buy(mint, 12_345_678_901_234n);
        out.push({ name: `${kind}: after two buys`, data: account(mint) });
        launchOperator.completeCurve(ledger, mint);
        out.push({ name: `${kind}: completed`, data: account(mint) });
      }
      const { mint } = launchOperator.createToken(ledger, {});
      if (generation !== "2026-09") {
        const user = PublicKey.unique();
        ledger.fund(user, 100_000_000_000n);
        const global = decodeLaunchGlobal(ledger.getAccount(GLOBAL_ADDRESS)!.data);
        ledger.execute(
          buildCurveBuyV3({
            global,
            mint,
            user,
            tokenProgram: TOKEN_2022_PROGRAM_ID,
            amount: 20_000_000_000_000n,
            maxSolCost: 50_000_000_000n,
            createAta: true,
          }),
        );
        out.push({ name: "after a v3 buy", data: account(mint) });
      }
      launchOperator.completeCurve(ledger, mint);
      launchOperator.migrateCurve(ledger, mint);
      out.push({ name: "migrated", data: account(mint) });
      return out;
    }

    let made: Promise<{ name: string; data: Buffer }[]> | undefined;
    const curvesOnce = () => (made ??= curves());

    it("decode as the SDK decodes them, at their own length and cut to every historical one", async () => {
      const all = await curvesOnce();
      const sdk = (name: string) => {
        const found = bySdk(all.find((c) => c.name === name)!.data);
        if ("error" in found) throw new Error(`the SDK refuses ${name}: ${found.error}`);
        return found.value;
      };
      // The accounts have what they are named for.
      expect(sdk("plain: fresh")).toMatchObject({
        complete: false,
        isMayhemMode: false,
        isCashbackCoin: false,
      });
      expect(sdk("mayhem: fresh").isMayhemMode).toBe(true);
      expect(sdk("cashback: fresh").isCashbackCoin).toBe(true);
      expect(sdk("plain: completed").complete).toBe(true);
      expect(sdk("plain: after two buys").realQuoteReserves).not.toBe(0n);
      expect(sdk("migrated").complete).toBe(true);
      if (generation !== "2026-09") {
        const grown = all.find((c) => c.name === "after a v3 buy")!.data;
        expect(grown.length).toBeGreaterThan(151);
        expect(grown.subarray(125).some((b) => b !== 0)).toBe(true);
      }
      for (const { name, data } of all) {
        expect("value" in expectSame(data, name), name).toBe(true);
        // What an older program wrote is a prefix of the same curve: the SDK reads the rest as zero.
        for (const length of [...HISTORICAL_LENGTHS, ...LIVE_LENGTHS]) {
          const cut = sized(data, length, () => 0);
          expect("value" in expectSame(cut, `${name}, ${length} bytes`)).toBe(true);
        }
      }
    });

    it("decode from every shape of account bytes (base64 RPC data, a Uint8Array, a slice of a larger buffer)", async () => {
      const [first] = await curvesOnce();
      const data = first!.data;
      expectSame([data.toString("base64"), "base64"], "base64");
      expectSame(new Uint8Array(data), "Uint8Array");
      const inside = Buffer.concat([Buffer.from([9, 9, 9]), data, Buffer.from([9])]);
      expectSame(inside.subarray(3, 3 + data.length), "at byte offset 3 of a larger buffer");
    });
  });

  it("decode random field values at every length from 49 to 260 bytes (seeded)", async () => {
    const next = random(20261129);
    let cases = 0;
    for (let length = 49; length <= 260; length++) {
      for (let k = 0; k < 2; k++) {
        const data = sized(await randomCurve(next), length, next);
        expect("value" in expectSame(data, `${length} bytes, case ${k}`)).toBe(true);
        cases++;
      }
    }
    expect(cases).toBe(424);
  });

  it("refuse what the SDK refuses, with its message (random bytes of every length, seeded)", async () => {
    const next = random(7);
    const head = await randomCurve(next);
    const refusals = new Set<string>();
    let decoded = 0;
    for (let length = 0; length <= 260; length++) {
      // Anything: refused by length, discriminator or (almost surely) a bool byte that is not 0 or 1.
      const noise = bytesOf(next, length);
      // The discriminator right and random bytes after it: the bools decide (2 of 256 values pass).
      const afterDisc = Buffer.concat([head.subarray(0, 8), bytesOf(next, Math.max(0, length - 8))]).subarray(
        0,
        length,
      );
      for (const data of [noise, afterDisc]) {
        const r = expectSame(data, `${length} random bytes`);
        if ("error" in r) refusals.add(r.error.replace(/\d+/g, "N"));
        else decoded++;
      }
    }
    // Each of the three refusals came up (nearly every case is refused: the coder-encoded cases above are the
    // ones made to decode).
    expect([...refusals].sort()).toEqual([
      "Invalid BondingCurve account: N bytes, expected at least N",
      "Invalid account discriminator",
      "Invalid bool: N",
    ]);
    expect(decoded).toBeLessThan(20);
  });

  it("refuse short accounts, a wrong discriminator and a bool that is not 0 or 1, as the SDK does", async () => {
    const curve = await randomCurve(random(3));
    const cases: [string, Buffer][] = [
      ["empty", Buffer.alloc(0)],
      ["8 bytes", curve.subarray(0, 8)],
      ["48 bytes", curve.subarray(0, 48)],
      ["zeros", Buffer.alloc(151)],
      ["a token account's bytes", Buffer.alloc(165, 1)],
    ];
    for (let i = 0; i < 8; i++) {
      const wrong = Buffer.from(curve);
      wrong[i] = wrong[i]! ^ 0x01;
      cases.push([`discriminator byte ${i} changed`, wrong]);
    }
    // Every bool of the IDL's layout set to 2 in turn (and the first one of two bad ones is the one named).
    for (const at of [48, 81, 82, 123, 124]) {
      const bad = Buffer.from(curve);
      bad[at] = 2;
      cases.push([`bool at ${at} = 2`, bad]);
      const two = Buffer.from(bad);
      two[124 === at ? 48 : 124] = 255;
      cases.push([`bools at ${at} = 2 and another = 255`, two]);
    }
    for (const [name, data] of cases) {
      const r = expectSame(data, name);
      expect("error" in r, `${name} is refused`).toBe(true);
    }
  });
});
