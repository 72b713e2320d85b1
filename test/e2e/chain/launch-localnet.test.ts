/**
 * The launch layer against the localnet, through nothing but web3.js' Connection: one read per trade,
 * our builders, client-signed transactions, and the balances that result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  type AddressLookupTableAccount,
  type TransactionInstruction,
} from "@solana/web3.js";
import { TOKEN_2022_PROGRAM_ID } from "@solana/spl-token";
import { LAUNCH } from "../../../src/core/errors.js";
import { startLocalnet, type LocalnetHandle } from "../../../localnet/index.js";
import { cashbackReadPlan, interpretCashbackRead } from "../../../src/launch/cashback-accounts.js";
import {
  buildClaimCurveCashback,
  buildClaimSwapCashback,
} from "../../../src/launch/cashback-instructions.js";
import { buildCreateV2, buildCreateV2AndBuyExactSolIn } from "../../../src/launch/create-instructions.js";
import { LAUNCH_GLOBAL, SWAP_FEE_CONFIG, SWAP_GLOBAL_CONFIG } from "../../../src/launch/programs.js";
import { staticLookupAddresses } from "../../../src/launch/lookup-table.js";
import {
  decodeLaunchGlobal,
  decodeSwapFeeConfig,
  decodeSwapGlobalConfig,
  type LaunchGlobal,
} from "../../../src/launch/state.js";
import { buildSwapState } from "../../../src/launch/swap-state.js";
import { interpretTradeRead, tradeReadPlan, type TradeRead } from "../../../src/launch/trade-accounts.js";
import {
  buildCurveBuyExactSolIn,
  buildCurveSell,
  buildSwapBuy,
  buildSwapSell,
} from "../../../src/launch/trade-instructions.js";
import {
  buildTokenTransfer,
  interpretTokenTransferRead,
  tokenTransferReadPlan,
} from "../../../src/launch/transfer-instructions.js";

let net: LocalnetHandle;
let connection: Connection;
let global: LaunchGlobal;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 50 });
  connection = new Connection(net.rpcUrl, "confirmed");
  const info = await connection.getAccountInfo(LAUNCH_GLOBAL);
  if (!info) throw new Error("localnet has no launch Global");
  global = decodeLaunchGlobal(info.data);
});

afterAll(async () => {
  await net?.close();
});

function funded(sol = 10n): Keypair {
  const k = Keypair.generate();
  net.admin.fund(k.publicKey.toBase58(), sol * BigInt(LAMPORTS_PER_SOL));
  return k;
}

/** Signs, sends and waits for the status; returns the transaction error (null on success). */
async function send(
  ixs: TransactionInstruction[],
  signers: Keypair[],
  tables?: AddressLookupTableAccount[],
): Promise<unknown> {
  const { blockhash } = await connection.getLatestBlockhash();
  let wire: Uint8Array;
  if (tables) {
    const message = new TransactionMessage({
      payerKey: signers[0]!.publicKey,
      recentBlockhash: blockhash,
      instructions: ixs,
    });
    const tx = new VersionedTransaction(message.compileToV0Message(tables));
    tx.sign(signers);
    wire = tx.serialize();
  } else {
    const tx = new Transaction({ feePayer: signers[0]!.publicKey, recentBlockhash: blockhash }).add(...ixs);
    tx.sign(...signers);
    wire = tx.serialize();
  }
  const signature = await connection.sendRawTransaction(wire, { skipPreflight: true });
  // Bounded polling on the localnet's own clock; no wall-clock assertion.
  for (let i = 0; i < 400; i++) {
    const { value } = await connection.getSignatureStatuses([signature]);
    const status = value[0];
    if (status && (status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized")) {
      return status.err;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`transaction ${signature} did not confirm`);
}

/** The trade read with exactly one getMultipleAccounts call. */
async function readTrade(mint: PublicKey, user: PublicKey, pool?: PublicKey): Promise<TradeRead> {
  const plan = tradeReadPlan({ mint, user, pool });
  net.admin.resetStats();
  const accounts = await connection.getMultipleAccountsInfo(plan.addresses);
  expect(net.admin.stats()["rpc.getMultipleAccounts"]).toBe(1);
  return interpretTradeRead(plan, accounts);
}

describe("launch layer on the localnet", () => {
  it("buys on the curve with buy_exact_sol_in and sells back (Token-2022 coin)", async () => {
    const { mint: mintText } = net.admin.createToken({ name: "Laser", symbol: "LSR" });
    const mint = new PublicKey(mintText);
    const user = funded();

    const before = await readTrade(mint, user.publicKey);
    expect(before.venue).toBe("bonding_curve");
    if (before.venue !== "bonding_curve") return;
    expect(before.tokenProgram).toEqual(TOKEN_2022_PROGRAM_ID);
    expect(before.userAtaExists).toBe(false);

    const spend = 100_000_000n;
    const lamportsBefore = BigInt(await connection.getBalance(user.publicKey));
    const buy = await buildCurveBuyExactSolIn({
      global,
      curve: before.curve,
      mint,
      user: user.publicKey,
      tokenProgram: before.tokenProgram,
      spendableLamports: spend,
      minTokensOut: 1n,
      createAta: !before.userAtaExists,
    });
    expect(await send(buy, [user])).toBeNull();

    const after = await readTrade(mint, user.publicKey);
    expect(after.userAtaExists).toBe(true);
    expect(after.userTokenBalance).toBeGreaterThan(0n);
    expect(after.venue === "bonding_curve" && after.curve.realQuoteReserves).toBeGreaterThan(0n);
    // The curve took at most the spendable amount; the rest is rent and the network fee.
    const spent = lamportsBefore - BigInt(await connection.getBalance(user.publicKey));
    expect(spent).toBeGreaterThan(spend);
    expect(spent).toBeLessThan(spend + 10_000_000n);

    if (after.venue !== "bonding_curve") return;
    const sell = await buildCurveSell({
      global,
      curve: after.curve,
      mint,
      user: user.publicKey,
      tokenProgram: after.tokenProgram,
      amount: after.userTokenBalance,
      minSolOutput: 1n,
      mayhem: after.curve.isMayhemMode,
      cashback: after.curve.isCashbackCoin,
    });
    expect(await send(sell, [user])).toBeNull();
    expect((await readTrade(mint, user.publicKey)).userTokenBalance).toBe(0n);
  });

  it("routes a migrated coin to its canonical pool and trades it there", async () => {
    const { mint: mintText } = net.admin.createToken();
    const mint = new PublicKey(mintText);
    net.admin.complete(mintText);
    const user = funded();
    await expect(readTrade(mint, user.publicKey)).rejects.toThrow(LAUNCH.notMigrated);
    const { pool } = net.admin.migrate(mintText);

    const read = await readTrade(mint, user.publicKey);
    expect(read.venue).toBe("launchswap");
    if (read.venue !== "launchswap") return;
    expect(read.poolAddress.toBase58()).toBe(pool);
    expect(read.poolReserves.base).toBeGreaterThan(0n);

    // Stand-in for the chain caches: the configs are read once, outside the request path.
    const [gcInfo, feeInfo] = await connection.getMultipleAccountsInfo([SWAP_GLOBAL_CONFIG, SWAP_FEE_CONFIG]);
    const globalConfig = decodeSwapGlobalConfig(gcInfo!.data);
    const feeConfig = feeInfo ? decodeSwapFeeConfig(feeInfo.data) : null;

    const baseOut = 1_000_000_000n;
    const buy = await buildSwapBuy({
      swapState: buildSwapState(read, globalConfig, feeConfig),
      baseOut,
      maxQuoteIn: LAMPORTS_PER_SOL_BIG,
    });
    expect(await send(buy, [user])).toBeNull();
    const afterBuy = await readTrade(mint, user.publicKey, new PublicKey(pool));
    expect(afterBuy.userTokenBalance).toBe(baseOut);
    expect(afterBuy.userWsolExists).toBe(false); // unwrapped again

    if (afterBuy.venue !== "launchswap") return;
    const sell = await buildSwapSell({
      swapState: buildSwapState(afterBuy, globalConfig, feeConfig),
      baseIn: baseOut,
      minQuoteOut: 1n,
    });
    expect(await send(sell, [user])).toBeNull();
    expect((await readTrade(mint, user.publicKey)).userTokenBalance).toBe(0n);
  });

  it("creates a coin with the creator's first buy in one transaction", async () => {
    const creator = funded();
    const mint = Keypair.generate();
    const ixs = await buildCreateV2AndBuyExactSolIn({
      mint: mint.publicKey,
      name: "L",
      symbol: "L",
      uri: "https://x.io/m",
      creator: creator.publicKey,
      mayhem: false,
      cashback: false,
      global,
      spendableLamports: 50_000_000n,
      minTokensOut: 1n,
    });
    expect(await send(ixs, [creator, mint])).toBeNull();
    const read = await readTrade(mint.publicKey, creator.publicKey);
    expect(read.venue).toBe("bonding_curve");
    expect(read.userTokenBalance).toBeGreaterThan(0n);
    expect(read.venue === "bonding_curve" && read.curve.creator).toEqual(creator.publicKey);
  });

  it("creates with maximal metadata and a first buy in one v0 transaction through the static lookup table", async () => {
    const payer = funded();
    const swapGlobalConfig = decodeSwapGlobalConfig(
      (await connection.getAccountInfo(SWAP_GLOBAL_CONFIG))!.data,
    );
    const tip = new PublicKey(net.relayTipAccounts[0]!);
    const addresses = staticLookupAddresses({ global, swapGlobalConfig, tipAccounts: [tip] });
    // A recent finalized slot on a real cluster; the localnet's SlotHashes may only know slot 0.
    let table: PublicKey | null = null;
    for (const recentSlot of [await connection.getSlot("finalized"), 0]) {
      const [create, address] = AddressLookupTableProgram.createLookupTable({
        authority: payer.publicKey,
        payer: payer.publicKey,
        recentSlot,
      });
      if ((await send([create], [payer])) === null) {
        table = address;
        break;
      }
    }
    if (table === null) throw new Error("could not create a lookup table");
    for (let i = 0; i < addresses.length; i += 20) {
      const extend = AddressLookupTableProgram.extendLookupTable({
        lookupTable: table,
        authority: payer.publicKey,
        payer: payer.publicKey,
        addresses: addresses.slice(i, i + 20),
      });
      expect(await send([extend], [payer])).toBeNull();
    }
    // Entries become usable in the slot after the extension.
    const extendedAt = await connection.getSlot("confirmed");
    while ((await connection.getSlot("confirmed")) <= extendedAt) await new Promise((r) => setTimeout(r, 25));
    const lookup = (await connection.getAddressLookupTable(table)).value;
    expect(lookup?.state.addresses).toHaveLength(addresses.length);

    const mint = Keypair.generate();
    const ixs = [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 400_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000 }),
      ...(await buildCreateV2AndBuyExactSolIn({
        mint: mint.publicKey,
        name: "N".repeat(32),
        symbol: "S".repeat(13),
        uri: `https://${"u".repeat(192)}`,
        creator: payer.publicKey,
        mayhem: false,
        cashback: false,
        global,
        spendableLamports: 10_000_000n,
        minTokensOut: 1n,
      })),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: tip, lamports: 200_000 }),
    ];
    expect(await send(ixs, [payer, mint], [lookup!])).toBeNull();
    expect((await readTrade(mint.publicKey, payer.publicKey)).userTokenBalance).toBeGreaterThan(0n);
  });

  it("a cashback create is left to the program, which rejects it (6082)", async () => {
    const creator = funded();
    const mint = Keypair.generate();
    const ix = await buildCreateV2({
      mint: mint.publicKey,
      name: "C",
      symbol: "C",
      uri: "https://x.io/c",
      creator: creator.publicKey,
      mayhem: false,
      cashback: true,
    });
    expect(await send([ix], [creator, mint])).toEqual({ InstructionError: [0, { Custom: 6082 }] });
  });

  it("reads cashback of several wallets in one call and claims both sources", async () => {
    const user = funded();
    const other = funded();
    net.admin.setCashback(user.publicKey.toBase58(), {
      bondingLamports: 3_000_000n,
      swapLamports: 2_000_000n,
    });

    const plan = cashbackReadPlan([user.publicKey, other.publicKey]);
    net.admin.resetStats();
    const accounts = await connection.getMultipleAccountsInfo(plan.addresses);
    expect(net.admin.stats()["rpc.getMultipleAccounts"]).toBe(1);
    const [mine, theirs] = interpretCashbackRead(plan, accounts);
    const rent = BigInt(await connection.getMinimumBalanceForRentExemption(mine!.launch.dataLength));
    expect(mine!.launch.ownedByLaunch).toBe(true);
    expect(mine!.launch.lamports - rent).toBe(3_000_000n);
    expect(mine!.swap).toEqual({ exists: true, amount: 2_000_000n, valid: true });
    expect(theirs!.launch.exists).toBe(false);
    expect(theirs!.swap.exists).toBe(false);

    const balance = async () => BigInt(await connection.getBalance(user.publicKey));
    const start = await balance();
    expect(await send(await buildClaimCurveCashback(user.publicKey), [user])).toBeNull();
    const afterCurve = await balance();
    expect(afterCurve - start).toBe(3_000_000n - 5_000n); // claim minus the signature fee
    expect(await send(await buildClaimSwapCashback(user.publicKey), [user])).toBeNull();
    expect((await balance()) - afterCurve).toBe(2_000_000n - 5_000n);

    const again = interpretCashbackRead(plan, await connection.getMultipleAccountsInfo(plan.addresses));
    expect(again[0]!.launch.lamports - rent).toBe(0n);
    expect(again[0]!.swap.amount).toBe(0n);
  });

  it("sends a Token-2022 token to a wallet without a token account", async () => {
    const { mint: mintText } = net.admin.createToken();
    const mint = new PublicKey(mintText);
    const user = funded();
    const recipient = Keypair.generate().publicKey;
    const read = await readTrade(mint, user.publicKey);
    if (read.venue !== "bonding_curve") throw new Error("expected the curve");
    const buy = await buildCurveBuyExactSolIn({
      global,
      curve: read.curve,
      mint,
      user: user.publicKey,
      tokenProgram: read.tokenProgram,
      spendableLamports: 10_000_000n,
      minTokensOut: 1n,
      createAta: true,
    });
    expect(await send(buy, [user])).toBeNull();

    const plan = tokenTransferReadPlan({ mint, from: user.publicKey });
    const source = interpretTokenTransferRead(plan, await connection.getMultipleAccountsInfo(plan.addresses));
    expect(source.tokenProgram).toEqual(TOKEN_2022_PROGRAM_ID);
    const amount = source.sourceBalance / 2n;
    const ixs = buildTokenTransfer({
      mint,
      tokenProgram: source.tokenProgram,
      decimals: source.decimals,
      from: user.publicKey,
      to: recipient,
      amount,
      createRecipientAta: true,
    });
    expect(await send(ixs, [user])).toBeNull();
    expect((await readTrade(mint, recipient)).userTokenBalance).toBe(amount);
    expect((await readTrade(mint, user.publicKey)).userTokenBalance).toBe(source.sourceBalance - amount);
  });
});

const LAMPORTS_PER_SOL_BIG = BigInt(LAMPORTS_PER_SOL);
