import { afterAll, beforeAll, describe, it, expect } from "vitest";
import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/index.js";

// The localnet refuses POSTs that are not application/json (issue 23: no cross-site admin calls).
const JSON_HEADERS = { "content-type": "application/json" };

const LAUNCH_SWAP_PROGRAM = "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA";
const LAUNCH_PROGRAM = "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P";

let net: LocalnetHandle;
let conn: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0, cashbackCreation: true });
  conn = new Connection(net.rpcUrl, "confirmed");
});
afterAll(async () => {
  await net.close();
});

async function admin(
  path: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${net.adminUrl}${path}`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe("admin routes over the emulated programs", () => {
  it("creates a token, refuses to migrate an incomplete curve, completes and migrates it", async () => {
    const created = await admin("/tokens", {
      name: "Localnet Coin",
      symbol: "LOC",
      uri: "https://example.invalid/loc.json",
    });
    expect(created.status).toBe(200);
    const mint = created.json.mint as string;
    const mintInfo = await conn.getAccountInfo(new PublicKey(mint));
    expect(mintInfo?.owner.toBase58()).toBe("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
    const early = await admin("/migrate", { mint });
    expect(early.status).toBe(400);
    expect((await admin("/complete", { mint })).status).toBe(200);
    const migrated = await admin("/migrate", { mint });
    expect(migrated.status).toBe(200);
    const pool = await conn.getAccountInfo(new PublicKey(migrated.json.pool as string));
    expect(pool?.owner.toBase58()).toBe(LAUNCH_SWAP_PROGRAM);
  });

  it("migrates with migrate_v2 when asked, and refuses an unknown instruction name", async () => {
    const mint = (await admin("/tokens", {})).json.mint as string;
    expect((await admin("/complete", { mint })).status).toBe(200);
    expect((await admin("/migrate", { mint, instruction: "migrate_v3" })).status).toBe(400);
    const migrated = await admin("/migrate", { mint, instruction: "migrate_v2" });
    expect(migrated.status).toBe(200);
    await admin("/slots", { n: 2 });
    const tx = await conn.getTransaction(migrated.json.signature as string, {
      commitment: "confirmed",
      maxSupportedTransactionVersion: 0,
    });
    expect(tx?.meta?.logMessages).toContain("Program log: Instruction: MigrateV2");
    const pool = await conn.getAccountInfo(new PublicKey(migrated.json.pool as string));
    expect(pool?.owner.toBase58()).toBe(LAUNCH_SWAP_PROGRAM);
  });

  it("sets claimable cashback on both programs for a user", async () => {
    const user = Keypair.generate().publicKey.toBase58();
    const res = await admin("/cashback", { user, bondingLamports: "2500000", swapLamports: 1_000_000 });
    expect(res.status).toBe(200);
    const [uva] = PublicKey.findProgramAddressSync(
      [Buffer.from("user_volume_accumulator"), new PublicKey(user).toBuffer()],
      new PublicKey(LAUNCH_PROGRAM),
    );
    expect((await conn.getAccountInfo(uva))?.owner.toBase58()).toBe(LAUNCH_PROGRAM);
  });

  it("creates cashback coins when the genesis allows it, and validates input", async () => {
    expect((await admin("/tokens", { cashback: true })).status).toBe(200);
    const bad = await admin("/complete", {});
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/mint/);
    const slots = await admin("/slots", { n: 5 });
    expect(slots.json.slot).toBe(Number(await conn.getSlot()));
  });
});
