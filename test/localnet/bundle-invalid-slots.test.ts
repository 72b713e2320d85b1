/**
 * The `bundleInvalidSlots` fault: an accepted bundle is reported `Invalid` by getInflightBundleStatuses and
 * is absent from getBundleStatuses for that many slots (what a block engine answers while a bundle is still
 * propagating), then lands — driven from a plain JSON-RPC client.
 */
import { afterAll, beforeAll, beforeEach, describe, it, expect } from "vitest";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from "@solana/web3.js";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/index.js";
import { postJsonRpc } from "../harness/json-rpc.js";
import { signedTransfer } from "../helpers/signed-transfer.js";

// The localnet refuses POSTs that are not application/json (issue 23: no cross-site admin calls).
const JSON_HEADERS = { "content-type": "application/json" };

let net: LocalnetHandle;
let conn: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
  conn = new Connection(net.rpcUrl, "confirmed");
});
afterAll(async () => {
  await net.close();
});
beforeEach(() => {
  net.admin.clearFaults();
});

// JSON-RPC answers are read loosely: the assertions themselves check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

async function bundleRpc(method: string, params: unknown[]): Promise<{ status: number; body: Loose }> {
  return postJsonRpc<Loose>(`${net.bundleRelayUrl}/api/v1/bundles`, method, params);
}

/** Sends a one-transaction bundle (a transfer to `dest` plus a tip); returns its id. */
async function sendTransferBundle(dest: PublicKey, lamports: number): Promise<string> {
  const from = Keypair.generate();
  net.admin.fund(from.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
  const wire = signedTransfer(from, dest, lamports, await conn.getLatestBlockhash(), {
    to: net.bundleTipAccounts[0]!,
    lamports: 1_000,
  });
  const sent = await bundleRpc("sendBundle", [[wire], { encoding: "base64" }]);
  expect(sent.status).toBe(200);
  return sent.body.result as string;
}

async function observe(id: string): Promise<{ inflight: unknown; landed: unknown }> {
  const inflight = (await bundleRpc("getInflightBundleStatuses", [[id]])).body.result.value[0];
  const landed = (await bundleRpc("getBundleStatuses", [[id]])).body.result.value[0];
  return { inflight, landed };
}

describe("bundleInvalidSlots fault", () => {
  it("reports Invalid and no landed status for N slots, then the bundle lands", async () => {
    net.admin.setFaults({ bundleInvalidSlots: 3 });
    const dest = Keypair.generate().publicKey;
    const id = await sendTransferBundle(dest, 2_000_000);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const sentAt = BigInt(await conn.getSlot());
    for (let i = 0; i < 3; i++) {
      const seen = await observe(id);
      expect(seen.inflight).toEqual({ bundle_id: id, status: "Invalid", landed_slot: null });
      expect(seen.landed).toBeNull();
      expect(await conn.getBalance(dest)).toBe(0);
      net.admin.advanceSlots(1);
    }
    const seen = await observe(id);
    expect(seen.inflight).toMatchObject({ bundle_id: id, status: "Landed" });
    expect(BigInt((seen.inflight as { landed_slot: number }).landed_slot)).toBe(sentAt + 3n);
    expect(seen.landed).toMatchObject({ bundle_id: id, err: { Ok: null } });
    expect(await conn.getBalance(dest)).toBe(2_000_000);
  });

  it("with landAfterSlots longer, Invalid first, then Pending, then Landed", async () => {
    net.admin.setFaults({ bundleInvalidSlots: 1, landAfterSlots: 3 });
    const dest = Keypair.generate().publicKey;
    const id = await sendTransferBundle(dest, 1_000_000);
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(((await observe(id)).inflight as { status: string }).status);
      net.admin.advanceSlots(1);
    }
    expect(statuses).toEqual(["Invalid", "Pending", "Pending", "Landed"]);
    expect(await conn.getBalance(dest)).toBe(1_000_000);
  });

  it("is validated and reported by the admin route", async () => {
    const bad = await fetch(`${net.adminUrl}/faults`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ bundleInvalidSlots: -1 }),
    });
    expect(bad.status).toBe(400);
    const ok = await fetch(`${net.adminUrl}/faults`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ bundleInvalidSlots: 2 }),
    });
    expect(ok.status).toBe(200);
    expect(await (await fetch(`${net.adminUrl}/faults`)).json()).toMatchObject({ bundleInvalidSlots: 2 });
  });
});
