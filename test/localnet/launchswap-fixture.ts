/** A ledger with the launch and launchswap programs, a migrated pool, and the helpers the launchswap tests share. */
import BN from "bn.js";
import { Keypair, PublicKey, Transaction, TransactionInstruction } from "@solana/web3.js";
import { createLedger, type Ledger } from "../../localnet/ledger/index.js";
import {
  completeCurve,
  createLaunchProgram,
  createToken,
  installLaunchGenesis,
} from "../../localnet/programs/launch/index.js";
import {
  createLaunchSwapProgram,
  installLaunchSwapGenesis,
} from "../../localnet/programs/launchswap/index.js";
import { migrateCurve } from "../../localnet/programs/launchswap/admin.js";
import { executeMigrate } from "../../localnet/programs/launchswap/migrate.js";
import { SWAP_PROGRAM_ID } from "../../localnet/programs/launchswap/addresses.js";
import { readTokenAccount } from "../../localnet/programs/launchswap/token-io.js";
import { launchSwapSdk } from "../../src/launch/sdk.js";
import { accountInfo } from "./ledger-views.js";
import { parseProgramGeneration } from "../../localnet/programs/generation.js";

const { OnlinePumpAmmSdk, OFFLINE_PUMP_AMM_PROGRAM } = launchSwapSdk;

/** The swap SDK's view of a pool and a user, as swapSolanaState returns it. */
export type SwapState = Awaited<ReturnType<InstanceType<typeof OnlinePumpAmmSdk>["swapSolanaState"]>>;

/** The ledger as the swap SDK's connection (it only calls getMultipleAccountsInfo). */
export function connectionOf(ledger: Ledger): ConstructorParameters<typeof OnlinePumpAmmSdk>[0] {
  const conn = {
    getMultipleAccountsInfo: async (keys: PublicKey[]) => keys.map((k) => accountInfo(ledger, k)),
  };
  // The SDK only reads accounts through getMultipleAccountsInfo; a full Connection is not needed.
  return conn as unknown as ConstructorParameters<typeof OnlinePumpAmmSdk>[0];
}

/** The real path: create_v2 through the launch program, then buy the curve out. */
export function completeCurveFixture(
  ledger: Ledger,
  cashback: boolean,
): { mint: PublicKey; creator: PublicKey } {
  const creator = Keypair.generate();
  const { mint } = createToken(ledger, { cashback, creator });
  completeCurve(ledger, mint);
  return { mint, creator: creator.publicKey };
}

/** A fresh ledger with the launch program (cashback creation on, migrating into launchswap) and the launchswap program. */
export function newLedger(): Ledger {
  const opts = { cashbackCreation: true };
  // The generation LOCALNET_PROGRAMS names (default the live one), so these tests run on either.
  const generation = parseProgramGeneration(process.env.LOCALNET_PROGRAMS);
  const ledger = createLedger({
    programs: [
      createLaunchProgram({ ...opts, migrate: executeMigrate, generation }),
      createLaunchSwapProgram(generation),
    ],
  });
  installLaunchGenesis(ledger, opts);
  installLaunchSwapGenesis(ledger);
  return ledger;
}

/** Signs `ixs` with the payer as a legacy transaction, processes it and advances one slot. */
export function send(ledger: Ledger, payer: Keypair, ixs: TransactionInstruction[]) {
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

/** The token account's amount, 0 when absent. */
export function tokens(ledger: Ledger, k: PublicKey): bigint {
  return readTokenAccount(ledger, k)?.amount ?? 0n;
}

/** The pool arguments the SDK's swap quote functions take. */
export function quoteArgs(state: SwapState) {
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

/** The pool's fee rates in bps, as the swap SDK computes them for `state`. */
export function feesBps(state: SwapState) {
  return launchSwapSdk.computeFeesBps({
    globalConfig: state.globalConfig,
    feeConfig: state.feeConfig,
    creator: state.pool.creator,
    baseMintSupply: new BN(state.baseMintAccount.supply.toString()),
    baseMint: state.baseMint,
    baseReserve: state.poolBaseAmount,
    quoteReserve: state.poolQuoteAmount,
    quoteMint: state.pool.quoteMint,
  });
}

/** An SDK BN as a bigint (the launch fixture's). */
export { big } from "./launch-fixture.js";

/** A migrated pool of a fresh coin, the swap SDK on the ledger and a funded user. */
export interface World {
  ledger: Ledger;
  sdk: InstanceType<typeof OnlinePumpAmmSdk>;
  pool: PublicKey;
  mint: PublicKey;
  user: Keypair;
}

/** A ledger with a coin migrated into its canonical pool (`cashback` coin or not) and a user holding 1 000 SOL. */
export function world(cashback: boolean): World {
  const ledger = newLedger();
  const { mint } = completeCurveFixture(ledger, cashback);
  const { pool } = migrateCurve(ledger, mint);
  const user = Keypair.generate();
  ledger.fund(user.publicKey, 1_000_000_000_000n);
  return { ledger, sdk: new OnlinePumpAmmSdk(connectionOf(ledger)), pool, mint, user };
}

/** Decodes the swap program's `Program data:` events of a transaction with the SDK's coder. */
export function swapEvents(logs: string[]): { name: string; data: Record<string, unknown> }[] {
  return logs
    .filter((l) => l.startsWith("Program data: "))
    .map((l) => OFFLINE_PUMP_AMM_PROGRAM.coder.events.decode(l.slice("Program data: ".length)))
    .filter((e): e is NonNullable<typeof e> => e !== null) as {
    name: string;
    data: Record<string, unknown>;
  }[];
}

/** The index of the swap program's trade instruction among `ixs`. */
export function swapIxIndex(ixs: TransactionInstruction[]): number {
  return ixs.findIndex((ix) => ix.programId.equals(SWAP_PROGRAM_ID) && ix.data.length > 8);
}
