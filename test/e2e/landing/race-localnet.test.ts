/**
 * Racing under a durable nonce on the localnet: four routes with their own tip accounts, drop rates 10-40 %
 * and slot delays 0-3. Every race sends one variant per route, each tipping its own route, all advancing the
 * wallet's nonce: at most one lands, the recipient's balance counts exactly one fill per landed race, and the
 * tips received are exactly the winners' tips. A losing variant sent again fails (its nonce is used).
 */
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type LocalnetHandle } from "../../../localnet/index.js";
import { createRpcClient, type RpcClient } from "../../../src/chain/rpc-client.js";
import { createRelayClient } from "../../../src/chain/relay-client.js";
import { assembleTransaction, createUniqueOffsets } from "../../../src/chain/tx-assembly.js";
import {
  createNonceInstructions,
  decodeNonce,
  NONCE_ACCOUNT_BYTES,
  nonceAddress,
  type NonceState,
} from "../../../src/chain/landing/nonce.js";
import {
  buildRaceVariants,
  landedVariant,
  sendVariants,
  type RaceRoute,
} from "../../../src/chain/landing/race.js";
import { RouteStats } from "../../../src/chain/landing/route-stats.js";

const SOL = 1_000_000_000n;
const AMOUNT = 1_000_000n;
const RACES = 12;

let net: LocalnetHandle;
let rpc: RpcClient;
let routes: RaceRoute[];

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 50 });
  rpc = createRpcClient({ url: net.rpcUrl, timeoutMs: 2_000, readRetries: 1 });
  routes = net.routes.map((r) => ({
    name: r.name,
    client: createRelayClient({ url: r.url, timeoutMs: 2_000 }),
    tipAccounts: r.tipAccounts.map((a) => new PublicKey(a)),
    minTipLamports: r.minTipLamports,
    mevProtect: false,
  }));
});

afterAll(async () => {
  await net?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readNonce(address: PublicKey): Promise<NonceState | null> {
  return decodeNonce(address, (await rpc.getAccountInfo(address)).value);
}

async function createNonce(wallet: Keypair): Promise<PublicKey> {
  const nonce = await nonceAddress(wallet.publicKey);
  const rent = await rpc.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_BYTES);
  const { value } = await rpc.getLatestBlockhash();
  const tx = assembleTransaction({
    payer: wallet,
    instructions: createNonceInstructions(wallet.publicKey, nonce, rent),
    computeUnitLimit: 10_000,
    computeUnitPriceMicroLamports: 0n,
    blockhash: value.blockhash,
  });
  await rpc.sendTransaction(tx.wire);
  for (let i = 0; i < 100 && (await readNonce(nonce)) === null; i++) await sleep(20);
  // The next advance needs a newer blockhash than the one the nonce was initialized at.
  const at = await rpc.getSlot();
  while ((await rpc.getSlot()) <= at) await sleep(20);
  return nonce;
}

describe("racing under a durable nonce (localnet routes)", () => {
  it("routes have distinct tip accounts", () => {
    const all = net.routes.flatMap((r) => r.tipAccounts);
    expect(net.routes.length).toBe(4);
    expect(new Set(all).size).toBe(all.length);
  });

  it("each race lands at most one variant; balances show one fill per landed race", async () => {
    const wallet = Keypair.generate();
    const recipient = Keypair.generate().publicKey;
    net.admin.fund(wallet.publicKey.toBase58(), 10n * SOL);
    net.admin.fund(recipient.toBase58(), SOL);
    const nonceKey = await createNonce(wallet);
    const tipsBefore = await tipBalances();
    const offsets = createUniqueOffsets();
    const stats = new RouteStats();
    let landedRaces = 0;
    let winnersTips = 0n;
    let loser: { wire: Uint8Array; route: string } | null = null;
    for (let i = 0; i < RACES; i++) {
      const nonce = (await readNonce(nonceKey))!;
      const variants = buildRaceVariants({
        payer: wallet,
        instructions: [
          SystemProgram.transfer({ fromPubkey: wallet.publicKey, toPubkey: recipient, lamports: AMOUNT }),
        ],
        computeUnitLimit: 10_000,
        computeUnitPriceMicroLamports: 0n,
        nonce,
        routes,
        tipLamports: (r) => r.minTipLamports + BigInt(i),
        uniqueOffset: offsets,
      });
      expect(new Set(variants.map((v) => v.signature)).size).toBe(routes.length);
      const sends = await sendVariants(variants, routes);
      expect(sends.filter((s) => !s.accepted)).toEqual([]);
      // Slot delays are at most 3: after 5 slots every variant that will land has landed.
      const start = await rpc.getSlot();
      while ((await rpc.getSlot()) < start + 5) await sleep(25);
      const { value } = await rpc.getSignatureStatuses(variants.map((v) => v.signature));
      const { landing, found } = landedVariant(variants, value);
      expect(found).toBeLessThanOrEqual(1);
      for (const v of variants) {
        const won = landing?.signature === v.signature;
        stats.record({
          route: v.route,
          atMs: Date.now(),
          accepted: true,
          landed: won,
          ...(won ? { slotsToLand: landing!.slot - start } : {}),
          tipLamports: v.tipLamports,
        });
      }
      if (landing !== null) {
        landedRaces++;
        winnersTips += variants.find((v) => v.signature === landing.signature)!.tipLamports;
        loser = variants.find((v) => v.signature !== landing.signature)!;
        // The nonce moved on: the next race builds on its new value.
        expect((await readNonce(nonceKey))!.value).not.toBe(nonce.value);
      }
    }
    console.log(
      `races ${RACES}, landed ${landedRaces}; per route: ${JSON.stringify(
        routes.map((r) => ({ route: r.name, ...stats.windows(r.name)["1h"] })),
      )}`,
    );
    expect(landedRaces).toBeGreaterThan(0);
    expect(await rpc.getBalance(recipient).then((b) => b.value)).toBe(SOL + BigInt(landedRaces) * AMOUNT);
    const tipsAfter = await tipBalances();
    expect(tipsAfter - tipsBefore).toBe(winnersTips);
    // A losing variant sent again on a route that lands everything at once: its nonce value is spent, so it
    // never lands (the route counts it expired).
    const on = loser!.route;
    net.admin.setRoute(on, { drop_rate: 0, slot_delay: [0, 0] });
    const expired = net.admin.routes().find((r) => r.name === on)!.expired;
    const resent = await routes.find((r) => r.name === on)!.client.sendTransaction(loser!.wire);
    expect((await rpc.getSignatureStatuses([resent])).value[0]).toBeNull();
    expect(net.admin.routes().find((r) => r.name === on)!.expired).toBe(expired + 1);
  });

  it("a nonce closed outside the service reads as absent", async () => {
    const wallet = Keypair.generate();
    net.admin.fund(wallet.publicKey.toBase58(), SOL);
    const nonceKey = await createNonce(wallet);
    const nonce = (await readNonce(nonceKey))!;
    expect(nonce.authority.equals(wallet.publicKey)).toBe(true);
    const { value } = await rpc.getLatestBlockhash();
    const close = assembleTransaction({
      payer: wallet,
      instructions: [
        SystemProgram.nonceWithdraw({
          noncePubkey: nonceKey,
          authorizedPubkey: wallet.publicKey,
          toPubkey: wallet.publicKey,
          lamports: Number(nonce.lamports),
        }),
      ],
      computeUnitLimit: 10_000,
      computeUnitPriceMicroLamports: 0n,
      blockhash: value.blockhash,
    });
    await rpc.sendTransaction(close.wire);
    for (let i = 0; i < 100 && (await readNonce(nonceKey)) !== null; i++) await sleep(20);
    expect(await readNonce(nonceKey)).toBeNull();
  });
});

async function tipBalances(): Promise<bigint> {
  let sum = 0n;
  for (const r of net.routes)
    for (const a of r.tipAccounts) sum += (await rpc.getBalance(new PublicKey(a))).value;
  return sum;
}
