/**
 * `npm run bench:landing [-- --trades 200]`: the landing scenario on the localnet's four routes (drop rates
 * 10/20/30/40 %, slot delays 0-3). Side by side in one run: each route alone (a plain transaction with a
 * recent blockhash and that route's tip) and the race over all four (one variant per route, all advancing the
 * wallet's durable nonce). Prints, per set-up: trades landed, slots from send to land (p50/p90), tips paid per
 * landed trade, and for the race the double fills found (any race with two landed variants) and the balance
 * check (the recipient received exactly one payment per landed race).
 */
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { startLocalnet, type LocalnetHandle } from "../localnet/index.js";
import { createRpcClient, type RpcClient } from "../src/chain/rpc-client.js";
import { createRelayClient } from "../src/chain/relay-client.js";
import { assembleTransaction, createUniqueOffsets } from "../src/chain/tx-assembly.js";
import {
  createNonceInstructions,
  decodeNonce,
  NONCE_ACCOUNT_BYTES,
  nonceAddress,
} from "../src/chain/landing/nonce.js";
import { buildRaceVariants, landedVariant, sendVariants, type RaceRoute } from "../src/chain/landing/race.js";
import { landingRow, renderLanding, type LandingRow } from "./landing-summary.js";
import { numberFlag } from "./flags.js";

const SOL = 1_000_000_000n;
const AMOUNT = 1_000_000n;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const argOf = (name: string, fallback: number): number => numberFlag(process.argv, name, fallback);

async function waitSlots(rpc: RpcClient, from: number, n: number): Promise<void> {
  while ((await rpc.getSlot()) < from + n) await sleep(10);
}

async function funded(net: LocalnetHandle): Promise<{ wallet: Keypair; recipient: PublicKey }> {
  const wallet = Keypair.generate();
  const recipient = Keypair.generate().publicKey;
  net.admin.fund(wallet.publicKey.toBase58(), 100n * SOL);
  net.admin.fund(recipient.toBase58(), SOL);
  return { wallet, recipient };
}

async function single(
  net: LocalnetHandle,
  rpc: RpcClient,
  route: RaceRoute,
  trades: number,
): Promise<LandingRow> {
  const { wallet, recipient } = await funded(net);
  const offsets = createUniqueOffsets();
  const row = landingRow(route.name, trades);
  for (let i = 0; i < trades; i++) {
    const { value } = await rpc.getLatestBlockhash();
    const tx = assembleTransaction({
      payer: wallet,
      instructions: [
        SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: recipient, lamports: AMOUNT }),
      ],
      computeUnitLimit: 10_000,
      computeUnitPriceMicroLamports: 0n,
      tip: { accounts: [...route.tipAccounts], lamports: route.minTipLamports },
      blockhash: value.blockhash,
      uniqueOffset: offsets(),
    });
    const start = await rpc.getSlot();
    await route.client.sendTransaction(tx.wire);
    await waitSlots(rpc, start, 4);
    const status = (await rpc.getSignatureStatuses([tx.signature])).value[0];
    if (status !== null && status !== undefined) {
      row.landed++;
      row.slots.push(status.slot - start);
      row.tips += route.minTipLamports;
    }
  }
  row.balanceOk = (await rpc.getBalance(recipient)).value === SOL + BigInt(row.landed) * AMOUNT;
  return row;
}

async function race(
  net: LocalnetHandle,
  rpc: RpcClient,
  routes: RaceRoute[],
  trades: number,
): Promise<LandingRow> {
  const { wallet, recipient } = await funded(net);
  const nonceKey = await nonceAddress(wallet.publicKey);
  const rent = await rpc.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_BYTES);
  const { value } = await rpc.getLatestBlockhash();
  await rpc.sendTransaction(
    assembleTransaction({
      payer: wallet,
      instructions: createNonceInstructions(wallet.publicKey, nonceKey, rent),
      computeUnitLimit: 10_000,
      computeUnitPriceMicroLamports: 0n,
      blockhash: value.blockhash,
    }).wire,
  );
  await waitSlots(rpc, await rpc.getSlot(), 2);
  const offsets = createUniqueOffsets();
  const row = landingRow("race (all four)", trades);
  for (let i = 0; i < trades; i++) {
    const nonce = decodeNonce(nonceKey, (await rpc.getAccountInfo(nonceKey)).value);
    if (nonce === null) throw new Error("nonce account missing");
    const variants = buildRaceVariants({
      payer: wallet,
      instructions: [
        SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: recipient, lamports: AMOUNT }),
      ],
      computeUnitLimit: 10_000,
      computeUnitPriceMicroLamports: 0n,
      nonce,
      routes,
      tipLamports: (r) => r.minTipLamports,
      uniqueOffset: offsets,
    });
    const start = await rpc.getSlot();
    await sendVariants(variants, routes);
    await waitSlots(rpc, start, 4);
    const statuses = (await rpc.getSignatureStatuses(variants.map((v) => v.signature))).value;
    const { landing, found } = landedVariant(variants, statuses);
    if (found > 1) row.doubleFills++;
    if (landing !== null) {
      row.landed++;
      row.slots.push(landing.slot - start);
      row.tips += variants.find((v) => v.signature === landing.signature)!.tipLamports;
    }
  }
  row.balanceOk = (await rpc.getBalance(recipient)).value === SOL + BigInt(row.landed) * AMOUNT;
  return row;
}

const trades = argOf("trades", 200);
const net = await startLocalnet({ port: 0, slotMs: 50 });
try {
  const rpc = createRpcClient({ url: net.rpcUrl, timeoutMs: 5_000, readRetries: 2 });
  const routes: RaceRoute[] = net.routes.map((r) => ({
    name: r.name,
    client: createRelayClient({ url: r.url, timeoutMs: 5_000 }),
    tipAccounts: r.tipAccounts.map((a) => new PublicKey(a)),
    minTipLamports: r.minTipLamports,
    mevProtect: false,
  }));
  const rows: LandingRow[] = [];
  for (const r of routes) rows.push(await single(net, rpc, r, trades));
  rows.push(await race(net, rpc, routes, trades));
  console.log(
    `landing scenario: ${trades} trades per set-up; routes ${net.admin
      .routes()
      .map((r) => `${r.name} drop ${r.drop_rate * 100} % delay ${r.slot_delay.join("-")}`)
      .join(", ")}`,
  );
  console.log(renderLanding(rows, [["balance check", (r) => (r.balanceOk ? "ok" : "MISMATCH")]]));
} finally {
  await net.close();
}
