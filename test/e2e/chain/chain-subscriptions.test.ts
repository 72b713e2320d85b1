import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Keypair, SystemProgram, Transaction, sendAndConfirmTransaction, Connection } from "@solana/web3.js";
import { startLocalnet } from "../../../localnet/index.js";
import type { LocalnetHandle } from "../../../localnet/index.js";
import { createChainSubscriptions } from "../../../src/chain/subscriptions/index.js";
import type {
  AccountUpdate,
  ChainSubscriptions,
  LogsUpdate,
} from "../../../src/chain/subscriptions/index.js";
import { closeWeb3Socket } from "../../helpers/web3-socket.js";

let net: LocalnetHandle;
let subs: ChainSubscriptions;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
});
afterAll(async () => {
  await net.close();
});
afterEach(async () => {
  await subs.close();
});

function open(): ChainSubscriptions {
  subs = createChainSubscriptions({
    url: net.wsUrl,
    headers: { "x-localnet-tag": "background" },
    backoff: { initialMs: 10, maxMs: 50 },
  });
  return subs;
}

/** Polls `check` until it holds (the node and the client are asynchronous peers). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function collector<T>(): { got: T[]; push: (v: T) => void } {
  const got: T[] = [];
  return { got, push: (v) => got.push(v) };
}

describe("chain subscriptions", () => {
  it("delivers slot-stamped account updates, sharing one node subscription between handlers", async () => {
    const s = open();
    const key = Keypair.generate().publicKey.toBase58();
    net.admin.fund(key, 1_000n);
    const a = collector<AccountUpdate>();
    const b = collector<AccountUpdate>();
    const stopA = s.accountSubscribe(key, a.push);
    const stopB = s.accountSubscribe(key, b.push);
    await Promise.all([stopA.ready, stopB.ready]);
    expect(net.admin.pubsubCounts().subscriptions.account).toBe(1);
    net.admin.advanceSlots(3);
    net.admin.fund(key, 5n);
    await until(() => a.got.length === 1 && b.got.length === 1, "both handlers");
    expect(a.got[0]!.account.lamports).toBe(1_005n);
    expect(a.got[0]!.slot).toBeGreaterThanOrEqual(4);
    expect(a.got[0]!.pubkey).toBe(key);
    stopA();
    expect(stopA.live()).toBe(false);
    expect(stopB.live()).toBe(true);
    stopB();
    await until(() => (net.admin.pubsubCounts().subscriptions.account ?? 0) === 0, "node-side unsubscribe");
    // The upgrade request's tag counts the layer's calls as background, apart from the request path.
    expect(net.admin.stats()["background:rpc.accountSubscribe"]).toBeGreaterThanOrEqual(1);
  });

  it("delivers the logs of transactions mentioning a program", async () => {
    const s = open();
    const logs = collector<LogsUpdate>();
    await s.logsSubscribe({ mentions: [SystemProgram.programId.toBase58()] }, logs.push).ready;
    const payer = Keypair.generate();
    net.admin.fund(payer.publicKey.toBase58(), 1_000_000_000n);
    const conn = new Connection(net.rpcUrl, { commitment: "processed", wsEndpoint: net.wsUrl });
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1e6,
      }),
    );
    const sig = await sendAndConfirmTransaction(conn, tx, [payer], { commitment: "processed" });
    await until(() => logs.got.some((l) => l.signature === sig), "the transfer's logs");
    const got = logs.got.find((l) => l.signature === sig)!;
    expect(got.err).toBeNull();
    expect(got.slot).toBe(await conn.getSlot("processed"));
    closeWeb3Socket(conn);
  });

  it("reconnects after the node drops the connection mid-stream and resubscribes", async () => {
    const s = open();
    const key = Keypair.generate().publicKey.toBase58();
    net.admin.fund(key, 1n);
    const updates = collector<AccountUpdate>();
    const liveness: boolean[] = [];
    const stop = s.accountSubscribe(key, updates.push, { onLive: (l) => liveness.push(l) });
    await stop.ready;
    net.admin.fund(key, 1n);
    await until(() => updates.got.length === 1, "first update");

    expect(net.admin.dropPubSubConnections()).toBeGreaterThanOrEqual(1);
    await until(() => liveness.length >= 3, "down and up again");
    expect(liveness).toEqual([true, false, true]);
    expect(stop.live()).toBe(true);
    expect(s.stats().reconnects).toBeGreaterThanOrEqual(1);

    net.admin.fund(key, 1n);
    await until(() => updates.got.length === 2, "update after the reconnect");
    expect(updates.got[1]!.account.lamports).toBe(3n);
    const st = s.stats();
    expect(st.connected).toBe(true);
    expect(st.subscriptions).toBe(2); // the account and the layer's own slot subscription
    expect(st.live).toBe(2);
    stop();
  });

  it("follows slots for freshness, and rejects a subscription the node refuses", async () => {
    const s = open();
    const slots = collector<number>();
    await s.slotSubscribe(slots.push).ready;
    net.admin.advanceSlots(1);
    await until(() => slots.got.length >= 1, "a slot");
    expect(s.lastSlot()).toBe(slots.got.at(-1));
    expect(s.slotsSinceLastMessage()).toBe(0);
    const bad = s.accountSubscribe("not-a-key", () => undefined);
    await expect(bad.ready).rejects.toThrow(/refused/);
    expect(bad.live()).toBe(false);
  });
});
