/**
 * The emulated bonding-curve program driven only by transactions the official SDK builds, signed and
 * processed like client transactions: balances must match the SDK's own quotes to the unit.
 */
import { describe, it, expect, beforeAll, beforeEach } from "vitest";
import fc from "fast-check";
import BN from "bn.js";
import {
  getAssociatedTokenAddressSync,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  unpackAccount,
  unpackMint,
  getMetadataPointerState,
} from "@solana/spl-token";
import {
  Keypair,
  PublicKey,
  TransactionMessage,
  VersionedTransaction,
  type AccountInfo,
  type TransactionInstruction,
} from "@solana/web3.js";
import { launchSdk } from "../../src/launch/sdk.js";
import { createLedger, type Ledger } from "../../localnet/ledger/index.js";
import type { TransactionRecord } from "../../localnet/ledger/index.js";
import { accountInfo, lamports } from "./ledger-views.js";
import {
  BUYBACK_FEE_RECIPIENTS,
  FEE_RECIPIENTS,
  RESERVED_FEE_RECIPIENTS,
  completeCurve,
  createLaunchProgram,
  createToken,
  creatorVaultAddress,
  curveAddress,
  installLaunchGenesis,
  readCurve,
  userVolumeAccumulatorAddress,
  GLOBAL_ADDRESS,
  FEE_CONFIG_ADDRESS,
} from "../../localnet/programs/launch/index.js";

const { PUMP_SDK } = launchSdk;
const ONE_BILLION = new BN("1000000000000000");
const bn = (x: bigint) => new BN(x.toString());
const big = (x: BN) => BigInt(x.toString());

function newLedger(cashbackCreation = false): Ledger {
  const ledger = createLedger({ programs: [createLaunchProgram({ cashbackCreation })] });
  installLaunchGenesis(ledger, { cashbackCreation });
  return ledger;
}

function must(ledger: Ledger, key: PublicKey): AccountInfo<Buffer> {
  const a = accountInfo(ledger, key);
  if (!a) throw new Error(`missing ${key.toBase58()}`);
  return a;
}

const ata = (mint: PublicKey, owner: PublicKey, program = TOKEN_2022_PROGRAM_ID) =>
  getAssociatedTokenAddressSync(mint, owner, true, program);

function tokenBalance(ledger: Ledger, key: PublicKey): bigint {
  const a = accountInfo(ledger, key);
  if (!a) return 0n;
  return unpackAccount(key, a, a.owner).amount;
}

function send(
  ledger: Ledger,
  payer: Keypair,
  ixs: TransactionInstruction[],
  extra: Keypair[] = [],
): TransactionRecord {
  const msg = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: ledger.latestBlockhash().blockhash,
    instructions: ixs,
  }).compileToV0Message();
  const tx = new VersionedTransaction(msg);
  tx.sign([payer, ...extra]);
  return ledger.processTransaction(tx.serialize());
}

function funded(ledger: Ledger, sol = 1_000n): Keypair {
  const k = Keypair.generate();
  ledger.fund(k.publicKey, sol * 1_000_000_000n);
  return k;
}

function sdkState(ledger: Ledger, mint: PublicKey) {
  return {
    global: PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS)),
    feeConfig: PUMP_SDK.decodeFeeConfig(must(ledger, FEE_CONFIG_ADDRESS)),
    curveInfo: must(ledger, curveAddress(mint)),
    curve: PUMP_SDK.decodeBondingCurve(must(ledger, curveAddress(mint))),
  };
}

type SdkState = ReturnType<typeof sdkState>;

/** The quote arguments the SDK's buy/sell estimators take, minus `amount`. */
function quoteArgs(s: SdkState) {
  return {
    global: s.global,
    feeConfig: s.feeConfig,
    mintSupply: ONE_BILLION,
    bondingCurve: s.curve,
    quoteMint: s.curve.quoteMint,
  };
}

/** The SDK's buy instructions for `amount` tokens at `solAmount`, the user's token account not yet created. */
function sdkBuyIxs(
  s: SdkState,
  mint: PublicKey,
  user: PublicKey,
  amount: BN,
  solAmount: BN,
  slippage: number,
): Promise<TransactionInstruction[]> {
  return PUMP_SDK.buyInstructions({
    global: s.global,
    bondingCurveAccountInfo: s.curveInfo,
    bondingCurve: s.curve,
    associatedUserAccountInfo: null,
    mint,
    user,
    amount,
    solAmount,
    slippage,
    tokenProgram: TOKEN_2022_PROGRAM_ID,
  });
}

/** A fresh user (funded with `fundSol` SOL) who bought `spend` lamports' worth of an existing coin. */
async function holderOf(ledger: Ledger, mint: PublicKey, fundSol: bigint, spend: BN, slippage: number) {
  const user = funded(ledger, fundSol);
  const s = sdkState(ledger, mint);
  const q = quoteArgs(s);
  const amount = launchSdk.getBuyTokenAmountFromSolAmount({ ...q, amount: spend });
  const solAmount = launchSdk.getBuySolAmountFromTokenAmount({ ...q, amount });
  const rec = send(ledger, user, await sdkBuyIxs(s, mint, user.publicKey, amount, solAmount, slippage));
  expect(rec.err, rec.logs.join("\n")).toBeNull();
  return { user, tokens: big(amount) };
}

/** Every lamport and token balance the instruction touches, for "nothing changed" checks. */
function snapshot(ledger: Ledger, ixs: TransactionInstruction[]) {
  const keys = [...new Set(ixs.flatMap((ix) => ix.keys.map((k) => k.pubkey.toBase58())))];
  return keys.map((k) => {
    const a = ledger.getAccount(new PublicKey(k));
    return `${k}:${a?.lamports ?? 0n}:${a ? Buffer.from(a.data).toString("hex") : "-"}`;
  });
}

function expectCustom(record: TransactionRecord, index: number, code: number) {
  expect(record.err).toEqual({ InstructionError: [index, { Custom: code }] });
}

describe("genesis", () => {
  it("holds the fee-recipient lists the SDK picks from, and the SDK's hard-coded buyback list", async () => {
    const ledger = newLedger();
    const global = PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS));
    expect([global.feeRecipient, ...global.feeRecipients].map(String)).toEqual(FEE_RECIPIENTS.map(String));
    expect([global.reservedFeeRecipient, ...global.reservedFeeRecipients].map(String)).toEqual(
      RESERVED_FEE_RECIPIENTS.map(String),
    );
    expect(global.buybackFeeRecipients.map(String)).toEqual(BUYBACK_FEE_RECIPIENTS.map(String));
    // The SDK samples its buyback recipient from a private list: drive Math.random over every slot.
    const seen = new Set<string>();
    const random = Math.random;
    try {
      for (let i = 0; i < 8; i++) {
        Math.random = () => (i + 0.5) / 8;
        const ix = await PUMP_SDK.getBuyInstructionRaw({
          user: PublicKey.unique(),
          mint: PublicKey.unique(),
          creator: PublicKey.unique(),
          amount: new BN(1),
          solAmount: new BN(1),
          feeRecipient: FEE_RECIPIENTS[0]!,
          tokenProgram: TOKEN_2022_PROGRAM_ID,
        } as Parameters<typeof PUMP_SDK.getBuyInstructionRaw>[0]);
        seen.add(ix.keys[17]!.pubkey.toBase58());
      }
    } finally {
      Math.random = random;
    }
    expect([...seen].sort()).toEqual(BUYBACK_FEE_RECIPIENTS.map(String).sort());
    for (const k of [...FEE_RECIPIENTS, ...RESERVED_FEE_RECIPIENTS, ...BUYBACK_FEE_RECIPIENTS])
      expect(lamports(ledger, k)).toBeGreaterThanOrEqual(ledger.rentExemptMinimum(0));
    const feeConfig = PUMP_SDK.decodeFeeConfig(must(ledger, FEE_CONFIG_ADDRESS));
    expect(feeConfig.feeTiers[0]!.fees.protocolFeeBps.toNumber()).toBe(95);
    expect(feeConfig.feeTiers[0]!.fees.creatorFeeBps.toNumber()).toBe(30);
  });
});

describe("create_v2", () => {
  it("creates a Token-2022 mint with metadata, the curve and its token account; mayhem flag recorded", () => {
    const ledger = newLedger();
    const { mint, creator } = createToken(ledger, {
      name: "Alpha",
      symbol: "ALP",
      uri: "https://x/a.json",
      mayhem: true,
    });
    const mintInfo = must(ledger, mint);
    expect(mintInfo.owner.equals(TOKEN_2022_PROGRAM_ID)).toBe(true);
    const m = unpackMint(mint, mintInfo, TOKEN_2022_PROGRAM_ID);
    expect(m.decimals).toBe(6);
    expect(m.supply).toBe(1_000_000_000_000_000n);
    expect(m.mintAuthority).toBeNull();
    expect(m.freezeAuthority).toBeNull();
    expect(getMetadataPointerState(m)?.metadataAddress?.equals(mint)).toBe(true);
    expect(mintInfo.data.includes(Buffer.from("Alpha"))).toBe(true);
    expect(mintInfo.data.includes(Buffer.from("https://x/a.json"))).toBe(true);
    const curve = readCurve(ledger, mint)!;
    expect(curve.isMayhemMode).toBe(true);
    expect(curve.isCashbackCoin).toBe(false);
    expect(curve.creator.equals(creator)).toBe(true);
    expect(must(ledger, curveAddress(mint)).data.length).toBe(151);
    expect(tokenBalance(ledger, ata(mint, curveAddress(mint)))).toBe(1_000_000_000_000_000n);
    expect(readCurve(ledger, createToken(ledger, {}).mint)!.isMayhemMode).toBe(false);
  });

  it("rejects the cashback flag with 6082 by default and creates a cashback coin with the switch on", async () => {
    for (const cashbackCreation of [false, true]) {
      const ledger = newLedger(cashbackCreation);
      const user = funded(ledger);
      const mint = Keypair.generate();
      const ix = await PUMP_SDK.createV2Instruction({
        mint: mint.publicKey,
        name: "Cash",
        symbol: "CB",
        uri: "https://x/c.json",
        creator: user.publicKey,
        user: user.publicKey,
        mayhemMode: false,
        cashback: true,
      });
      const before = lamports(ledger, user.publicKey);
      const rec = send(ledger, user, [ix], [mint]);
      if (!cashbackCreation) {
        expectCustom(rec, 0, 6082);
        expect(rec.logs.join("\n")).toContain("CashbackDeprecated");
        expect(ledger.getAccount(mint.publicKey)).toBeNull();
        expect(lamports(ledger, user.publicKey)).toBe(before - rec.fee);
      } else {
        expect(rec.err).toBeNull();
        expect(readCurve(ledger, mint.publicKey)!.isCashbackCoin).toBe(true);
      }
    }
  });

  it("create-v2-and-buy built by the SDK lands with exactly the quoted tokens and lamports", async () => {
    const ledger = newLedger();
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 10_000n, max: 80_000_000_000n }), async (sol) => {
        const user = funded(ledger, 200n);
        const mint = Keypair.generate();
        const global = PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS));
        const feeConfig = PUMP_SDK.decodeFeeConfig(must(ledger, FEE_CONFIG_ADDRESS));
        const q = { global, feeConfig, mintSupply: null, bondingCurve: null, quoteMint: PublicKey.default };
        const amount = launchSdk.getBuyTokenAmountFromSolAmount({ ...q, amount: bn(sol) });
        const cost = launchSdk.getBuySolAmountFromTokenAmount({ ...q, amount });
        const ixs = await PUMP_SDK.createV2AndBuyInstructions({
          global,
          mint: mint.publicKey,
          name: "Prop",
          symbol: "PRP",
          uri: "https://x/p.json",
          creator: user.publicKey,
          user: user.publicKey,
          amount,
          solAmount: cost,
          mayhemMode: false,
        });
        const before = lamports(ledger, user.publicKey);
        const rec = send(ledger, user, ixs, [mint]);
        expect(rec.err, rec.logs.join("\n")).toBeNull();
        const userAta = ata(mint.publicKey, user.publicKey);
        expect(tokenBalance(ledger, userAta)).toBe(big(amount));
        const curveKey = curveAddress(mint.publicKey);
        const curve = readCurve(ledger, mint.publicKey)!;
        const rents =
          lamports(ledger, mint.publicKey) +
          ledger.rentExemptMinimum(151) +
          lamports(ledger, ata(mint.publicKey, curveKey)) +
          lamports(ledger, userAta) +
          lamports(ledger, userVolumeAccumulatorAddress(user.publicKey));
        const solCost = (big(amount) * 30_000_000_000n) / (1_073_000_000_000_000n - big(amount)) + 1n;
        const creatorFee = (solCost * 30n + 9_999n) / 10_000n;
        const vault = lamports(ledger, creatorVaultAddress(user.publicKey));
        // Vault top-up: the creator's first fee must leave the vault rent-exempt (the buyer pays the gap).
        const topUp =
          creatorFee < ledger.rentExemptMinimum(0) ? ledger.rentExemptMinimum(0) - creatorFee : 0n;
        expect(vault).toBe(creatorFee + topUp);
        expect(curve.realQuoteReserves).toBe(solCost);
        expect(lamports(ledger, curveKey)).toBe(ledger.rentExemptMinimum(151) + curve.realQuoteReserves);
        expect(before - lamports(ledger, user.publicKey)).toBe(big(cost) + rec.fee + rents + topUp);
      }),
      { numRuns: 20 },
    );
  });
});

/** Creates a coin (operator-paid) and returns a user holding some of it. */
async function coinWithHolder(ledger: Ledger, opts: { mayhem?: boolean; cashback?: boolean } = {}) {
  const { mint, creator } = createToken(ledger, opts);
  const { user, tokens } = await holderOf(ledger, mint, 200n, new BN(2_000_000_000), 1);
  return { mint, creator, user, tokens };
}

describe("buy and sell built by the SDK", () => {
  let ledger: Ledger;
  let mint: PublicKey;
  let creator: PublicKey;
  beforeAll(() => {
    ledger = newLedger();
  });
  // Each case trades its own coin so no case drives another's curve to completion.
  beforeEach(() => {
    ({ mint, creator } = createToken(ledger, {}));
  });

  it("buy: tokens and every lamport movement equal the SDK quote", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 1_000n, max: 1_500_000_000n }), fc.boolean(), async (sol, exact) => {
        const user = funded(ledger, 10n);
        const s = sdkState(ledger, mint);
        const q = quoteArgs(s);
        // Either the SDK's SOL→tokens estimate or a direct token amount (reference A.1a / A.2).
        const amount = exact
          ? launchSdk.getBuyTokenAmountFromSolAmount({ ...q, amount: bn(sol) })
          : bn(sol * 1_000n);
        const cost = launchSdk.getBuySolAmountFromTokenAmount({ ...q, amount });
        const ixs = await sdkBuyIxs(s, mint, user.publicKey, amount, cost, 0);
        const buy = ixs[ixs.length - 1]!;
        const feeRecipient = buy.keys[1]!.pubkey;
        const buyback = buy.keys[17]!.pubkey;
        const vault = creatorVaultAddress(creator);
        const pre = {
          user: lamports(ledger, user.publicKey),
          curve: lamports(ledger, curveAddress(mint)),
          fees: lamports(ledger, feeRecipient) + lamports(ledger, buyback),
          vault: lamports(ledger, vault),
        };
        const rec = send(ledger, user, ixs);
        expect(rec.err, rec.logs.join("\n")).toBeNull();
        const curveBefore = s.curve;
        const solCost =
          (big(amount) * big(curveBefore.virtualQuoteReserves)) /
            (big(curveBefore.virtualTokenReserves) - big(amount)) +
          1n;
        expect(tokenBalance(ledger, ata(mint, user.publicKey))).toBe(big(amount));
        expect(lamports(ledger, curveAddress(mint)) - pre.curve).toBe(solCost);
        const creatorFee = (solCost * 30n + 9_999n) / 10_000n;
        const rent0 = ledger.rentExemptMinimum(0);
        const topUp = pre.vault + creatorFee < rent0 ? rent0 - pre.vault - creatorFee : 0n;
        expect(lamports(ledger, vault) - pre.vault).toBe(creatorFee + topUp);
        expect(lamports(ledger, feeRecipient) + lamports(ledger, buyback) - pre.fees).toBe(
          big(cost) - solCost - creatorFee,
        );
        const rents =
          lamports(ledger, ata(mint, user.publicKey)) +
          lamports(ledger, userVolumeAccumulatorAddress(user.publicKey));
        expect(pre.user - lamports(ledger, user.publicKey)).toBe(big(cost) + topUp + rents + rec.fee);
      }),
      { numRuns: 25 },
    );
  });

  it("sell: the user receives exactly the SDK's quoted lamports", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 1n, max: 1_000_000n }), async (permille) => {
        const { user, tokens } = await coinHolderOn(ledger, mint);
        const amount = (tokens * permille) / 1_000_000n || 1n;
        const s = sdkState(ledger, mint);
        const out = launchSdk.getSellSolAmountFromTokenAmount({ ...quoteArgs(s), amount: bn(amount) });
        const ixs = await PUMP_SDK.sellInstructions({
          global: s.global,
          bondingCurveAccountInfo: s.curveInfo,
          bondingCurve: s.curve,
          mint,
          user: user.publicKey,
          amount: bn(amount),
          solAmount: out,
          slippage: 0,
          tokenProgram: TOKEN_2022_PROGRAM_ID,
          mayhemMode: s.curve.isMayhemMode,
          cashback: s.curve.isCashbackCoin,
        });
        const pre = lamports(ledger, user.publicKey);
        const preCurve = lamports(ledger, curveAddress(mint));
        const rec = send(ledger, user, ixs);
        expect(rec.err, rec.logs.join("\n")).toBeNull();
        expect(lamports(ledger, user.publicKey) - pre).toBe(big(out) - rec.fee);
        expect(tokenBalance(ledger, ata(mint, user.publicKey))).toBe(tokens - amount);
        const solOut =
          (amount * big(s.curve.virtualQuoteReserves)) / (big(s.curve.virtualTokenReserves) + amount);
        expect(preCurve - lamports(ledger, curveAddress(mint))).toBe(solOut);
      }),
      { numRuns: 25 },
    );
  });

  it("buy_exact_sol_in built per reference A.1(b) follows the IDL formula B.1.3", async () => {
    const program = launchSdk.getPumpProgram(null as never);
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 10_000n, max: 2_000_000_000n }), async (spendable) => {
        const user = funded(ledger, 10n);
        const s = sdkState(ledger, mint);
        const vT = big(s.curve.virtualTokenReserves);
        const vS = big(s.curve.virtualQuoteReserves);
        const [p, c] = [95n, 30n];
        let net = (spendable * 10_000n) / (10_000n + p + c);
        const fees = (net * p + 9_999n) / 10_000n + (net * c + 9_999n) / 10_000n;
        if (net + fees > spendable) net -= net + fees - spendable;
        const expected = ((net - 1n) * vT) / (vS + net - 1n);
        const userAta = ata(mint, user.publicKey);
        const ix = await program.methods
          .buyExactSolIn(bn(spendable), bn(expected), { 0: true })
          .accountsPartial({
            feeRecipient: FEE_RECIPIENTS[3]!,
            mint,
            associatedUser: userAta,
            user: user.publicKey,
            creatorVault: creatorVaultAddress(creator),
            tokenProgram: TOKEN_2022_PROGRAM_ID,
          })
          .remainingAccounts([
            { pubkey: launchSdk.bondingCurveV2Pda(mint), isWritable: false, isSigner: false },
            { pubkey: BUYBACK_FEE_RECIPIENTS[5]!, isWritable: true, isSigner: false },
          ])
          .instruction();
        const createAta = (
          await import("@solana/spl-token")
        ).createAssociatedTokenAccountIdempotentInstruction(
          user.publicKey,
          userAta,
          user.publicKey,
          mint,
          TOKEN_2022_PROGRAM_ID,
        );
        const pre = lamports(ledger, user.publicKey);
        const preCurve = lamports(ledger, curveAddress(mint));
        const rec = send(ledger, user, [createAta, ix]);
        expect(rec.err, rec.logs.join("\n")).toBeNull();
        expect(tokenBalance(ledger, userAta)).toBe(expected);
        // Documented choice: the curve is credited net_sol and the user pays net_sol + fees(net_sol).
        expect(lamports(ledger, curveAddress(mint)) - preCurve).toBe(net);
        const charged = net + (net * p + 9_999n) / 10_000n + (net * c + 9_999n) / 10_000n;
        expect(charged).toBeLessThanOrEqual(spendable);
        const rents =
          lamports(ledger, userAta) + lamports(ledger, userVolumeAccumulatorAddress(user.publicKey));
        expect(pre - lamports(ledger, user.publicKey)).toBe(charged + rents + rec.fee);
      }),
      { numRuns: 20 },
    );
  });

  it("a slippage limit one unit too tight fails with the program's code and changes nothing", async () => {
    const { user, tokens } = await coinHolderOn(ledger, mint);
    const s = sdkState(ledger, mint);
    const amount = bn(tokens / 3n);
    const cost = launchSdk.getBuySolAmountFromTokenAmount({ ...quoteArgs(s), amount });
    const base = {
      user: user.publicKey,
      mint,
      creator,
      feeRecipient: FEE_RECIPIENTS[1]!,
      buybackFeeRecipient: BUYBACK_FEE_RECIPIENTS[2]!,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    };
    const buyIx = await PUMP_SDK.getBuyInstructionRaw({ ...base, amount, solAmount: cost.subn(1) });
    const out = launchSdk.getSellSolAmountFromTokenAmount({ ...quoteArgs(s), amount });
    const sellIx = await PUMP_SDK.getSellInstructionRaw({ ...base, amount, solAmount: out.addn(1) });
    for (const [ix, code] of [
      [buyIx, 6002],
      [sellIx, 6003],
    ] as const) {
      const before = snapshot(ledger, [ix]);
      const payerBefore = lamports(ledger, user.publicKey);
      const rec = send(ledger, user, [ix]);
      expectCustom(rec, 0, code);
      expect(rec.logs.some((l) => l.includes(`Error Number: ${code}`))).toBe(true);
      // Only the transaction fee leaves the payer; every other byte and lamport is unchanged.
      ledger.setAccount(user.publicKey, { ...ledger.getAccount(user.publicKey)!, lamports: payerBefore });
      expect(snapshot(ledger, [ix])).toEqual(before);
    }
    // And the exact limits pass.
    expect(
      send(ledger, user, [await PUMP_SDK.getBuyInstructionRaw({ ...base, amount, solAmount: cost })]).err,
    ).toBeNull();
  });
});

/** A fresh user holding tokens of an existing coin. */
function coinHolderOn(ledger: Ledger, mint: PublicKey) {
  return holderOf(ledger, mint, 20n, new BN(500_000_000), 0);
}

describe("rejected account lists", () => {
  it("wrong PDA → 2006, missing signer → 3010, SPL token program for a Token-2022 mint → IncorrectProgramId", async () => {
    const ledger = newLedger();
    const { mint, creator } = createToken(ledger, {});
    const { user } = await coinHolderOn(ledger, mint);
    const base = {
      user: user.publicKey,
      mint,
      creator,
      amount: new BN(1_000_000),
      solAmount: new BN(1_000_000_000),
      feeRecipient: FEE_RECIPIENTS[0]!,
      buybackFeeRecipient: BUYBACK_FEE_RECIPIENTS[0]!,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    };

    const wrongVault = await PUMP_SDK.getBuyInstructionRaw({ ...base, creator: PublicKey.unique() });
    let rec = send(ledger, user, [wrongVault]);
    expectCustom(rec, 0, 2006);
    expect(rec.logs.join("\n")).toContain("ConstraintSeeds");
    expect(rec.logs.join("\n")).toContain("creator_vault");

    const unsigned = await PUMP_SDK.getBuyInstructionRaw(base);
    unsigned.keys[6] = { ...unsigned.keys[6]!, isSigner: false };
    const payer = funded(ledger, 1n);
    rec = send(ledger, payer, [unsigned]);
    expectCustom(rec, 0, 3010);
    expect(rec.logs.join("\n")).toContain("AccountNotSigner");

    const splProgram = await PUMP_SDK.getBuyInstructionRaw({ ...base, tokenProgram: TOKEN_PROGRAM_ID });
    rec = send(ledger, user, [splProgram]);
    expect(rec.err).toEqual({ InstructionError: [0, "IncorrectProgramId"] });

    const badBuyback = await PUMP_SDK.getBuyInstructionRaw({
      ...base,
      buybackFeeRecipient: PublicKey.unique(),
    });
    expectCustom(send(ledger, user, [badBuyback]), 0, 6057);
    const mayhemRecipient = await PUMP_SDK.getBuyInstructionRaw({
      ...base,
      feeRecipient: RESERVED_FEE_RECIPIENTS[0]!,
    });
    expectCustom(send(ledger, user, [mayhemRecipient]), 0, 6000);
  });
});

describe("cashback coins", () => {
  it("accrue the creator fee in the user's accumulator on buys and sells, and claim_cashback pays it", async () => {
    const ledger = newLedger(true);
    const { mint, creator, user, tokens } = await coinWithHolder(ledger, { cashback: true });
    const uvaKey = userVolumeAccumulatorAddress(user.publicKey);
    const uvaRent = ledger.rentExemptMinimum(137);
    const accrued = lamports(ledger, uvaKey) - uvaRent;
    expect(accrued).toBeGreaterThan(0n);
    expect(lamports(ledger, creatorVaultAddress(creator))).toBe(0n);
    const decodeUva = () => PUMP_SDK.decodeUserVolumeAccumulator(must(ledger, uvaKey));
    expect(big(decodeUva().cashbackEarned)).toBe(accrued);

    const s = sdkState(ledger, mint);
    const amount = bn(tokens / 2n);
    const out = launchSdk.getSellSolAmountFromTokenAmount({ ...quoteArgs(s), amount });
    const solOut =
      (big(amount) * big(s.curve.virtualQuoteReserves)) / (big(s.curve.virtualTokenReserves) + big(amount));
    const creatorFee = (solOut * 30n + 9_999n) / 10_000n;
    const sell = await PUMP_SDK.sellInstructions({
      global: s.global,
      bondingCurveAccountInfo: s.curveInfo,
      bondingCurve: s.curve,
      mint,
      user: user.publicKey,
      amount,
      solAmount: out,
      slippage: 0,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
      mayhemMode: false,
      cashback: true,
    });
    const pre = lamports(ledger, user.publicKey);
    let rec = send(ledger, user, sell);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(lamports(ledger, user.publicKey) - pre).toBe(big(out) - rec.fee);
    expect(lamports(ledger, uvaKey) - uvaRent).toBe(accrued + creatorFee);
    expect(big(decodeUva().cashbackEarned)).toBe(accrued + creatorFee);

    // claim_cashback is permissionless: someone else pays the fee, the user gets the lamports.
    const payer = funded(ledger, 1n);
    const before = lamports(ledger, user.publicKey);
    rec = send(ledger, payer, [await PUMP_SDK.claimCashbackInstruction({ user: user.publicKey })]);
    expect(rec.err, rec.logs.join("\n")).toBeNull();
    expect(lamports(ledger, user.publicKey) - before).toBe(accrued + creatorFee);
    expect(lamports(ledger, uvaKey)).toBe(uvaRent);
    expect(big(decodeUva().totalCashbackClaimed)).toBe(accrued + creatorFee);
  });
});

describe("completion", () => {
  it("completeCurve buys out the real reserves; every later trade fails with 6005", async () => {
    const ledger = newLedger();
    const { mint, creator, user, tokens } = await coinWithHolder(ledger);
    completeCurve(ledger, mint);
    const curve = readCurve(ledger, mint)!;
    expect(curve.complete).toBe(true);
    expect(curve.realTokenReserves).toBe(0n);
    expect(tokenBalance(ledger, ata(mint, curveAddress(mint)))).toBe(
      1_000_000_000_000_000n - 793_100_000_000_000n,
    );
    expect(lamports(ledger, curveAddress(mint))).toBe(
      ledger.rentExemptMinimum(151) + curve.realQuoteReserves,
    );
    const base = {
      user: user.publicKey,
      mint,
      creator,
      feeRecipient: FEE_RECIPIENTS[0]!,
      buybackFeeRecipient: BUYBACK_FEE_RECIPIENTS[0]!,
      tokenProgram: TOKEN_2022_PROGRAM_ID,
    };
    const buy = await PUMP_SDK.getBuyInstructionRaw({
      ...base,
      amount: new BN(1),
      solAmount: new BN(1_000_000_000),
    });
    expectCustom(send(ledger, user, [buy]), 0, 6005);
    const sell = await PUMP_SDK.getSellInstructionRaw({ ...base, amount: bn(tokens), solAmount: new BN(0) });
    expectCustom(send(ledger, user, [sell]), 0, 6005);
  });
});
