/**
 * A ledger with the launch program installed, and the helpers the launch tests share: send a
 * signed transaction, fund a user, read balances, and build buys the way the official SDK does.
 */
import { expect } from "vitest";
import BN from "bn.js";
import { getAssociatedTokenAddressSync, TOKEN_2022_PROGRAM_ID, unpackAccount } from "@solana/spl-token";
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
import { accountInfo } from "./ledger-views.js";
import { parseProgramGeneration } from "../../localnet/programs/generation.js";
import {
  createLaunchProgram,
  createToken,
  curveAddress,
  installLaunchGenesis,
  GLOBAL_ADDRESS,
  FEE_CONFIG_ADDRESS,
} from "../../localnet/programs/launch/index.js";

const { PUMP_SDK } = launchSdk;
const ONE_BILLION = new BN("1000000000000000");
/** A bigint as the SDK's BN. */
export const bn = (x: bigint) => new BN(x.toString());
/** An SDK BN as a bigint. */
export const big = (x: BN) => BigInt(x.toString());

/**
 * A fresh ledger with the launch program and its genesis accounts (cashback creation off by default),
 * of the generation LOCALNET_PROGRAMS names (default the live one), so these tests run on either.
 */
export function newLedger(cashbackCreation = false): Ledger {
  const generation = parseProgramGeneration(process.env.LOCALNET_PROGRAMS);
  const ledger = createLedger({ programs: [createLaunchProgram({ cashbackCreation, generation })] });
  installLaunchGenesis(ledger, { cashbackCreation });
  return ledger;
}

/** The account as web3.js' AccountInfo; throws when absent. */
export function must(ledger: Ledger, key: PublicKey): AccountInfo<Buffer> {
  const a = accountInfo(ledger, key);
  if (!a) throw new Error(`missing ${key.toBase58()}`);
  return a;
}

/** The associated token account of `owner` for `mint` (Token-2022 by default). */
export const ata = (mint: PublicKey, owner: PublicKey, program = TOKEN_2022_PROGRAM_ID) =>
  getAssociatedTokenAddressSync(mint, owner, true, program);

/** The token account's amount, 0 when absent. */
export function tokenBalance(ledger: Ledger, key: PublicKey): bigint {
  const a = accountInfo(ledger, key);
  if (!a) return 0n;
  return unpackAccount(key, a, a.owner).amount;
}

/** Signs `ixs` with the payer (and `extra`) as a v0 transaction and processes it on the ledger. */
export function send(
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

/** A new keypair holding `sol` SOL. */
export function funded(ledger: Ledger, sol = 1_000n): Keypair {
  const k = Keypair.generate();
  ledger.fund(k.publicKey, sol * 1_000_000_000n);
  return k;
}

/** The global, fee config and curve of `mint` as the SDK decodes them. */
export function sdkState(ledger: Ledger, mint: PublicKey) {
  return {
    global: PUMP_SDK.decodeGlobal(must(ledger, GLOBAL_ADDRESS)),
    feeConfig: PUMP_SDK.decodeFeeConfig(must(ledger, FEE_CONFIG_ADDRESS)),
    curveInfo: must(ledger, curveAddress(mint)),
    curve: PUMP_SDK.decodeBondingCurve(must(ledger, curveAddress(mint))),
  };
}

type SdkState = ReturnType<typeof sdkState>;

/** The quote arguments the SDK's buy/sell estimators take, minus `amount`. */
export function quoteArgs(s: SdkState) {
  return {
    global: s.global,
    feeConfig: s.feeConfig,
    mintSupply: ONE_BILLION,
    bondingCurve: s.curve,
    quoteMint: s.curve.quoteMint,
  };
}

/** The SDK's buy instructions for `amount` tokens at `solAmount`, the user's token account not yet created. */
export function sdkBuyIxs(
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
export async function holderOf(
  ledger: Ledger,
  mint: PublicKey,
  fundSol: bigint,
  spend: BN,
  slippage: number,
) {
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
export function snapshot(ledger: Ledger, ixs: TransactionInstruction[]) {
  const keys = [...new Set(ixs.flatMap((ix) => ix.keys.map((k) => k.pubkey.toBase58())))];
  return keys.map((k) => {
    const a = ledger.getAccount(new PublicKey(k));
    return `${k}:${a?.lamports ?? 0n}:${a ? Buffer.from(a.data).toString("hex") : "-"}`;
  });
}

/** Asserts the transaction failed at instruction `index` with the program's custom error `code`. */
export function expectCustom(record: TransactionRecord, index: number, code: number) {
  expect(record.err).toEqual({ InstructionError: [index, { Custom: code }] });
}

/** Creates a coin (operator-paid) and returns a user holding some of it. */
export async function coinWithHolder(ledger: Ledger, opts: { mayhem?: boolean; cashback?: boolean } = {}) {
  const { mint, creator } = createToken(ledger, opts);
  const { user, tokens } = await holderOf(ledger, mint, 200n, new BN(2_000_000_000), 1);
  return { mint, creator, user, tokens };
}

/** A fresh user holding tokens of an existing coin. */
export function coinHolderOn(ledger: Ledger, mint: PublicKey) {
  return holderOf(ledger, mint, 20n, new BN(500_000_000), 0);
}
