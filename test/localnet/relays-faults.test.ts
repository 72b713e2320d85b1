import { afterAll, beforeAll, beforeEach, describe, it, expect } from "vitest";
import bs58 from "bs58";
import { createHash } from "node:crypto";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from "@solana/web3.js";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/index.js";
import { postJsonRpc } from "../harness/json-rpc.js";
import { signedTransfer as signedTransferOf } from "../helpers/signed-transfer.js";

// The localnet refuses POSTs that are not application/json (issue 23: no cross-site admin calls).
const JSON_HEADERS = { "content-type": "application/json" };

let net: LocalnetHandle;
let conn: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
  conn = new Connection(net.rpcUrl, { commitment: "confirmed", disableRetryOnRateLimit: true });
});
afterAll(async () => {
  await net.close();
});
beforeEach(() => {
  net.admin.clearFaults();
  net.admin.resetStats();
});

interface RpcBody {
  result?: unknown;
  error?: { code: number; message: string };
}

async function post(
  url: string,
  method: string,
  params: unknown[],
): Promise<{ status: number; body: RpcBody }> {
  return postJsonRpc<RpcBody>(url, method, params, 7);
}

function funded(): Keypair {
  const k = Keypair.generate();
  net.admin.fund(k.publicKey.toBase58(), 10n * BigInt(LAMPORTS_PER_SOL));
  return k;
}

async function signedTransfer(
  from: Keypair,
  to: PublicKey,
  lamports: number,
  tip?: { to: string; lamports: number },
): Promise<string> {
  return signedTransferOf(from, to, lamports, await conn.getLatestBlockhash(), tip);
}

const b64 = { encoding: "base64", skipPreflight: true, maxRetries: 0 };

describe("submission relay", () => {
  it("lands a tipped transaction and rejects a missing or low tip and preflight sends", async () => {
    const a = funded();
    const dest = Keypair.generate().publicKey;
    const noTip = await post(net.relayUrl, "sendTransaction", [await signedTransfer(a, dest, 1e6), b64]);
    expect(noTip.status).toBe(400);
    expect(noTip.body.error?.code).toBe(-32602);
    expect(noTip.body.error?.message).toMatch(/tip/);
    const low = await post(net.relayUrl, "sendTransaction", [
      await signedTransfer(a, dest, 1e6, { to: net.relayTipAccounts[0]!, lamports: 199_999 }),
      b64,
    ]);
    expect(low.body.error?.code).toBe(-32602);
    const tipped = await signedTransfer(a, dest, 1e6, { to: net.relayTipAccounts[3]!, lamports: 200_000 });
    const preflight = await post(net.relayUrl, "sendTransaction", [tipped, { encoding: "base64" }]);
    expect(preflight.body.error?.message).toMatch(/skipPreflight/);
    const ok = await post(net.relayUrl, "sendTransaction", [tipped, b64]);
    expect(typeof ok.body.result).toBe("string");
    expect(await conn.getBalance(dest)).toBe(1e6);
    // A rebroadcast of a landed transaction is accepted and dropped, as on mainnet.
    const again = await post(net.relayUrl, "sendTransaction", [tipped, b64]);
    expect(again.body.result).toBe(ok.body.result);
    expect(net.admin.stats()["relay.sendTransaction"]).toBe(5);
  });

  it("logs every decodable send by signature, with its send count and whether it was accepted", async () => {
    net.admin.resetRelaySignatures();
    const a = funded();
    const dest = Keypair.generate().publicKey;
    const noTip = await signedTransfer(a, dest, 1e6);
    await post(net.relayUrl, "sendTransaction", [noTip, b64]);
    const tipped = await signedTransfer(a, dest, 2e6, { to: net.relayTipAccounts[1]!, lamports: 200_000 });
    const ok = await post(net.relayUrl, "sendTransaction", [tipped, b64]);
    await post(net.relayUrl, "sendTransaction", [tipped, b64]);
    await post(net.relayUrl, "sendTransaction", ["not a transaction", b64]);
    const sigOf = (wire: string) => bs58.encode(Buffer.from(wire, "base64").subarray(1, 65));
    const expected = [
      { signature: sigOf(noTip), sends: 1, accepted: false },
      { signature: ok.body.result, sends: 2, accepted: true },
    ];
    expect(net.admin.relaySignatures()).toEqual(expected);
    const overHttp = await fetch(`${net.adminUrl}/relay/signatures`).then((r) => r.json());
    expect(overHttp).toEqual({ signatures: expected });
    await fetch(`${net.adminUrl}/relay/signatures/reset`, { method: "POST", headers: JSON_HEADERS });
    expect(net.admin.relaySignatures()).toEqual([]);
  });
});

describe("bundle relay", () => {
  it("serves tip accounts on both paths and derives the bundle id from first signatures", async () => {
    for (const path of ["/api/v1/bundles", "/api/v1/getTipAccounts"]) {
      const r = await post(`${net.bundleRelayUrl}${path}`, "getTipAccounts", []);
      expect(r.body.result).toEqual(net.bundleTipAccounts);
    }
    const a = funded();
    const t1 = await signedTransfer(a, Keypair.generate().publicKey, 1e6);
    const t2 = await signedTransfer(a, Keypair.generate().publicKey, 1e6, {
      to: net.bundleTipAccounts[0]!,
      lamports: 1000,
    });
    const r = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "sendBundle", [
      [t1, t2],
      { encoding: "base64" },
    ]);
    const sigs = [t1, t2].map((t) => bs58.encode(Buffer.from(t, "base64").subarray(1, 65)));
    expect(r.body.result).toBe(createHash("sha256").update(sigs.join(",")).digest("hex"));
    const st = await post(`${net.bundleRelayUrl}/api/v1/getBundleStatuses`, "getBundleStatuses", [
      [r.body.result],
    ]);
    expect(st.body.result).toMatchObject({
      value: [{ bundle_id: r.body.result, transactions: sigs, err: { Ok: null } }],
    });
    const inflight = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "getInflightBundleStatuses", [
      [r.body.result, "00"],
    ]);
    expect(inflight.body.result).toMatchObject({
      value: [
        { status: "Landed", landed_slot: expect.any(Number) },
        { bundle_id: "00", status: "Invalid", landed_slot: null },
      ],
    });
  });

  it("leaves the first two transactions unapplied when the third fails", async () => {
    const a = funded();
    const d1 = Keypair.generate().publicKey;
    const d2 = Keypair.generate().publicKey;
    const t1 = await signedTransfer(a, d1, 1e6);
    const t2 = await signedTransfer(a, d2, 1e6);
    const t3 = await signedTransfer(a, Keypair.generate().publicKey, 100 * LAMPORTS_PER_SOL, {
      to: net.bundleTipAccounts[1]!,
      lamports: 5000,
    });
    const before = await conn.getBalance(a.publicKey);
    const r = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "sendBundle", [
      [t1, t2, t3],
      { encoding: "base64" },
    ]);
    const id = r.body.result as string;
    const inflight = await post(
      `${net.bundleRelayUrl}/api/v1/getInflightBundleStatuses`,
      "getInflightBundleStatuses",
      [[id]],
    );
    expect(inflight.body.result).toMatchObject({ value: [{ status: "Failed", landed_slot: null }] });
    expect(await conn.getBalance(d1)).toBe(0);
    expect(await conn.getBalance(d2)).toBe(0);
    expect(await conn.getBalance(a.publicKey)).toBe(before);
    const sig1 = bs58.encode(Buffer.from(t1, "base64").subarray(1, 65));
    expect((await conn.getSignatureStatuses([sig1])).value[0]).toBeNull();
  });

  it("rejects untipped, oversized and base58-by-default bundles like the block engine", async () => {
    const a = funded();
    const t = await signedTransfer(a, Keypair.generate().publicKey, 1e6);
    const untipped = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "sendBundle", [
      [t],
      { encoding: "base64" },
    ]);
    expect(untipped.body.error).toMatchObject({
      code: -32602,
      message: "bundle does not lock any of the tip PDAs",
    });
    const six = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "sendBundle", [
      [t, t, t, t, t, t],
      { encoding: "base64" },
    ]);
    expect(six.body.error?.message).toBe("bundle exceeds max transaction length");
    const tipped = await signedTransfer(a, Keypair.generate().publicKey, 1e6, {
      to: net.bundleTipAccounts[0]!,
      lamports: 999,
    });
    const low = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "sendBundle", [
      [tipped],
      { encoding: "base64" },
    ]);
    expect(low.body.error?.message).toBe("Bundle must tip at least 1000 lamports");
    const b58 = bs58.encode(Buffer.from(tipped, "base64"));
    const r = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "sendBundle", [[b58]]);
    expect(r.body.error?.message).toBe("Bundle must tip at least 1000 lamports");
  });
});

describe("faults", () => {
  it("adds latency to matching calls", async () => {
    net.admin.setFaults({ latencyMs: 150, methods: ["getSlot"] });
    let delayed = false;
    const t = setTimeout(() => (delayed = true), 100);
    await conn.getSlot();
    clearTimeout(t);
    expect(delayed).toBe(true);
  });

  it("answers HTTP 429 / 500 / JSON-RPC errors for errorCount calls, then serves again", async () => {
    const res = await fetch(`${net.adminUrl}/faults`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ errorCount: 1, errorKind: "http429", endpoints: ["rpc"] }),
    });
    expect(res.status).toBe(200);
    const r429 = await post(net.rpcUrl, "getSlot", []);
    expect(r429.status).toBe(429);
    expect((await post(net.rpcUrl, "getSlot", [])).status).toBe(200);
    net.admin.setFaults({ errorCount: 1, errorKind: "http500" });
    expect((await post(net.rpcUrl, "getSlot", [])).status).toBe(500);
    net.admin.setFaults({ errorRate: 1, errorKind: "rpcError" });
    await expect(conn.getSlot()).rejects.toThrow(/injected fault/);
    net.admin.setFaults({ errorCount: 40, errorKinds: ["http429", "http500"], endpoints: ["rpc"] });
    const mixed = new Set<number>();
    for (let i = 0; i < 40; i++) mixed.add((await post(net.rpcUrl, "getSlot", [])).status);
    expect([...mixed].sort()).toEqual([429, 500]);
    expect(() => net.admin.setFaults({ errorKinds: ["http418" as "http429"] })).toThrow(/errorKinds/);
    net.admin.setFaults({ errorCount: 1, endpoints: ["bundle"] });
    const rb = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "getTipAccounts", []);
    expect(rb.status).toBe(429);
    expect(rb.body.error?.code).toBe(-32097);
  });

  it("accepts sends that never land, and lands delayed sends after N slots", async () => {
    const a = funded();
    const dest = Keypair.generate().publicKey;
    net.admin.setFaults({ neverLand: true });
    const sig = await conn.sendRawTransaction(Buffer.from(await signedTransfer(a, dest, 1e6), "base64"));
    net.admin.advanceSlots(3);
    expect((await conn.getSignatureStatuses([sig])).value[0]).toBeNull();
    expect(await conn.getBalance(dest)).toBe(0);

    await fetch(`${net.adminUrl}/faults`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ landAfterSlots: 2 }),
    });
    const sig2 = await conn.sendRawTransaction(Buffer.from(await signedTransfer(a, dest, 2e6), "base64"));
    net.admin.advanceSlots(1);
    expect((await conn.getSignatureStatuses([sig2])).value[0]).toBeNull();
    await fetch(`${net.adminUrl}/slots`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ n: 1 }),
    });
    expect((await conn.getSignatureStatuses([sig2])).value[0]?.err).toBeNull();
    expect(await conn.getBalance(dest)).toBe(2e6);
  });

  it("keeps bundles Invalid or reports them Failed without applying them", async () => {
    const a = funded();
    const dest = Keypair.generate().publicKey;
    for (const [fault, status] of [
      [{ bundleInvalid: true }, "Invalid"],
      [{ bundleFailed: true }, "Failed"],
    ] as const) {
      net.admin.setFaults(fault);
      const t = await signedTransfer(a, dest, 1e6, { to: net.bundleTipAccounts[2]!, lamports: 10_000 });
      const id = (
        await post(`${net.bundleRelayUrl}/api/v1/bundles`, "sendBundle", [[t], { encoding: "base64" }])
      ).body.result as string;
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      net.admin.advanceSlots(2);
      const st = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "getInflightBundleStatuses", [[id]]);
      expect(st.body.result).toMatchObject({ value: [{ bundle_id: id, status, landed_slot: null }] });
      expect(await conn.getBalance(dest)).toBe(0);
    }
  });

  it("hangs matching calls past a client timeout", async () => {
    net.admin.setFaults({ hangMs: 2000, methods: ["getBalance"] });
    const ctl = new AbortController();
    const t = setTimeout(() => ctl.abort(), 100);
    await expect(
      fetch(net.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "getBalance",
          params: [net.relayTipAccounts[0]],
        }),
        signal: ctl.signal,
      }),
    ).rejects.toThrow(/abort/i);
    clearTimeout(t);
    expect((await post(net.rpcUrl, "getSlot", [])).status).toBe(200);
  });
});

describe("stats", () => {
  it("counts calls per endpoint and method until reset", async () => {
    await conn.getSlot();
    await conn.getSlot();
    await conn.getBalance(Keypair.generate().publicKey);
    await post(`${net.bundleRelayUrl}/api/v1/getTipAccounts`, "getTipAccounts", []);
    const stats = (await (await fetch(`${net.adminUrl}/stats`)).json()) as Record<string, number>;
    expect(stats).toEqual({ "rpc.getSlot": 2, "rpc.getBalance": 1, "bundle.getTipAccounts": 1 });
    await fetch(`${net.adminUrl}/stats/reset`, { method: "POST", headers: JSON_HEADERS });
    expect(net.admin.stats()).toEqual({});
  });
});

describe("limits", () => {
  it("rejects a transaction above 1232 bytes like the RPC", async () => {
    const big = Buffer.alloc(1300, 1).toString("base64");
    const r = await post(net.rpcUrl, "sendTransaction", [big, { encoding: "base64" }]);
    expect(r.body.error?.code).toBe(-32602);
    expect(r.body.error?.message).toMatch(/too large: 1300 bytes/);
  });

  it("lands a bundle delayed by landAfterSlots only once the slots pass", async () => {
    net.admin.setFaults({ landAfterSlots: 3 });
    const a = funded();
    const dest = Keypair.generate().publicKey;
    const t = await signedTransfer(a, dest, 1e6, { to: net.bundleTipAccounts[0]!, lamports: 1000 });
    const id = (
      await post(`${net.bundleRelayUrl}/api/v1/bundles`, "sendBundle", [[t], { encoding: "base64" }])
    ).body.result as string;
    net.admin.advanceSlots(2);
    const pending = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "getInflightBundleStatuses", [[id]]);
    expect(pending.body.result).toMatchObject({ value: [{ status: "Pending" }] });
    net.admin.advanceSlots(1);
    const landed = await post(`${net.bundleRelayUrl}/api/v1/bundles`, "getInflightBundleStatuses", [[id]]);
    expect(landed.body.result).toMatchObject({ value: [{ status: "Landed" }] });
    expect(await conn.getBalance(dest)).toBe(1e6);
  });
});
