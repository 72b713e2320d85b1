import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  sendAndConfirmTransaction,
} from "@solana/web3.js";
import type { AccountInfo, Logs } from "@solana/web3.js";
import WebSocket from "ws";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/index.js";
import { closeWeb3Socket } from "../helpers/web3-socket.js";

let net: LocalnetHandle;
let conn: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
  conn = new Connection(net.rpcUrl, { commitment: "processed", wsEndpoint: net.wsUrl });
});
afterAll(async () => {
  closeWeb3Socket(conn);
  await net.close();
});

/** Resolves with the first value `register` hands to its callback. */
function first<T>(register: (cb: (v: T) => void) => number): { id: number; value: Promise<T> } {
  let id = 0;
  const value = new Promise<T>((resolve) => {
    id = register(resolve);
  });
  return { id, value };
}

/** Waits until the localnet holds `n` subscriptions of `kind` (web3.js subscribes asynchronously). */
async function subscribed(kind: string, n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((net.admin.pubsubCounts().subscriptions[kind] ?? 0) >= n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${kind} subscription`);
}

/** A raw JSON-RPC WebSocket client: the exact wire shapes, without web3.js in between. */
async function rawClient(): Promise<{
  call: (method: string, params: unknown[]) => Promise<Record<string, unknown>>;
  next: () => Promise<Record<string, unknown>>;
  close: () => void;
}> {
  const ws = new WebSocket(net.wsUrl);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const queue: Record<string, unknown>[] = [];
  const waiting: ((m: Record<string, unknown>) => void)[] = [];
  ws.on("message", (data: Buffer) => {
    const m = JSON.parse(data.toString("utf8")) as Record<string, unknown>;
    const w = waiting.shift();
    if (w !== undefined) w(m);
    else queue.push(m);
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve) => {
      const m = queue.shift();
      if (m !== undefined) resolve(m);
      else waiting.push(resolve);
    });
  let id = 1;
  return {
    call: async (method, params) => {
      ws.send(JSON.stringify({ jsonrpc: "2.0", id: id++, method, params }));
      return next();
    },
    next,
    close: () => ws.close(),
  };
}

describe("accountSubscribe / logsSubscribe", () => {
  it("web3.js onAccountChange sees an operator /admin write and a transfer", async () => {
    const payer = Keypair.generate();
    net.admin.fund(payer.publicKey.toBase58(), 5_000_000_000n);
    const dest = Keypair.generate().publicKey;
    net.admin.fund(dest.toBase58(), 1_000_000n);

    const fund = first<AccountInfo<Buffer>>((cb) =>
      conn.onAccountChange(dest, cb, { commitment: "processed" }),
    );
    await subscribed("account", 1);
    net.admin.fund(dest.toBase58(), 500n);
    const afterFund = await fund.value;
    expect(afterFund.lamports).toBe(1_000_500);
    expect(afterFund.owner.equals(SystemProgram.programId)).toBe(true);
    await conn.removeAccountChangeListener(fund.id);

    const transfer = first<AccountInfo<Buffer>>((cb) =>
      conn.onAccountChange(dest, cb, { commitment: "processed" }),
    );
    await subscribed("account", 1);
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: dest, lamports: 7 }),
    );
    await sendAndConfirmTransaction(conn, tx, [payer], { commitment: "processed" });
    expect((await transfer.value).lamports).toBe(1_000_507);
    await conn.removeAccountChangeListener(transfer.id);
  });

  it("web3.js onLogs with a mentions filter gets the logs of transactions touching that program only", async () => {
    const payer = Keypair.generate();
    net.admin.fund(payer.publicKey.toBase58(), 5_000_000_000n);
    const logs = first<Logs>((cb) => conn.onLogs(SystemProgram.programId, cb, "processed"));
    await subscribed("logs", 1);
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1e6,
      }),
    );
    const sig = await sendAndConfirmTransaction(conn, tx, [payer], { commitment: "processed" });
    const got = await logs.value;
    expect(got.signature).toBe(sig);
    expect(got.err).toBeNull();
    expect(got.logs.some((l) => l.includes("11111111111111111111111111111111"))).toBe(true);
    await conn.removeOnLogsListener(logs.id);
  });

  it("sends the real node's wire shapes, skips unchanged writes, and refuses bad params", async () => {
    const c = await rawClient();
    const key = Keypair.generate().publicKey.toBase58();
    net.admin.fund(key, 1_000n);
    const sub = await c.call("accountSubscribe", [key, { encoding: "base64", commitment: "confirmed" }]);
    expect(typeof sub.result).toBe("number");
    net.admin.fund(key, 0n); // written, unchanged: no notification
    net.admin.fund(key, 1n);
    const n = await c.next();
    expect(n).toEqual({
      jsonrpc: "2.0",
      method: "accountNotification",
      params: {
        subscription: sub.result,
        result: {
          context: { slot: expect.any(Number) as number },
          value: {
            data: ["", "base64"],
            executable: false,
            lamports: 1_001,
            owner: "11111111111111111111111111111111",
            rentEpoch: 2 ** 64, // u64::MAX as JSON.parse reads it
            space: 0,
          },
        },
      },
    });
    const unsub = await c.call("accountUnsubscribe", [sub.result]);
    expect(unsub.result).toBe(true);
    expect((await c.call("logsSubscribe", [{ mentions: [key, key] }])).error).toEqual({
      code: -32602,
      message: "Invalid Request: Only 1 address supported",
    });
    expect(((await c.call("accountSubscribe", ["nope"])).error as { code: number }).code).toBe(-32602);
    c.close();
  });

  it("drops every connection on request, and the subscriptions with them", async () => {
    const c = await rawClient();
    await c.call("accountSubscribe", [new PublicKey(Keypair.generate().publicKey).toBase58()]);
    expect(net.admin.pubsubCounts().subscriptions.account).toBeGreaterThanOrEqual(1);
    expect(net.admin.dropPubSubConnections()).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 100 && (net.admin.pubsubCounts().subscriptions.account ?? 0) > 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(net.admin.pubsubCounts().subscriptions.account ?? 0).toBe(0);
  });
});
