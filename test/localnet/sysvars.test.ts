/**
 * The Clock and SlotHashes sysvars follow the localnet's slot clock, so programs that read them (the
 * Address Lookup Table program checks `recent_slot` against SlotHashes) work with the slots clients see.
 */
import { afterAll, beforeAll, describe, it, expect } from "vitest";
import {
  AddressLookupTableProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SYSVAR_CLOCK_PUBKEY,
  SYSVAR_SLOT_HASHES_PUBKEY,
  SendTransactionError,
  TransactionMessage,
  VersionedTransaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import { startLocalnet } from "../../localnet/index.js";
import type { LocalnetHandle } from "../../localnet/index.js";
import { closeWeb3Socket } from "../helpers/web3-socket.js";

let net: LocalnetHandle;
let conn: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 0 });
  conn = new Connection(net.rpcUrl, { commitment: "confirmed", wsEndpoint: net.wsUrl });
});
afterAll(async () => {
  closeWeb3Socket(conn);
  await net.close();
});

async function funded(): Promise<Keypair> {
  const k = Keypair.generate();
  await conn.requestAirdrop(k.publicKey, 2 * LAMPORTS_PER_SOL);
  return k;
}

/** Sends with preflight; resolves to the processed status' err (null = landed). */
async function send(payer: Keypair, ixs: TransactionInstruction[]): Promise<unknown> {
  const { blockhash } = await conn.getLatestBlockhash();
  const msg = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions: ixs,
  }).compileToV0Message();
  const tx = new VersionedTransaction(msg);
  tx.sign([payer]);
  const sig = await conn.sendRawTransaction(tx.serialize());
  return (await conn.getSignatureStatuses([sig])).value[0]?.err;
}

function createTable(authority: Keypair, recentSlot: number) {
  return AddressLookupTableProgram.createLookupTable({
    authority: authority.publicKey,
    payer: authority.publicKey,
    recentSlot,
  });
}

/** SlotHashes account data: u64 count, then (u64 slot, 32-byte hash) entries, newest first. */
function decodeSlotHashes(data: Buffer): { slot: bigint; hash: string }[] {
  const n = Number(data.readBigUInt64LE(0));
  return Array.from({ length: n }, (_, i) => ({
    slot: data.readBigUInt64LE(8 + i * 40),
    hash: data.subarray(16 + i * 40, 48 + i * 40).toString("hex"),
  }));
}

describe("slot sysvars", () => {
  it("createLookupTable with recentSlot = getSlot() works as slots advance; extend and use it", async () => {
    const authority = await funded();
    for (const advance of [0, 7, 150]) {
      net.admin.advanceSlots(advance);
      const recentSlot = await conn.getSlot();
      const [ix, table] = createTable(authority, recentSlot);
      expect(await send(authority, [ix])).toBeNull();
      const extend = AddressLookupTableProgram.extendLookupTable({
        lookupTable: table,
        authority: authority.publicKey,
        payer: authority.publicKey,
        addresses: [Keypair.generate().publicKey, Keypair.generate().publicKey],
      });
      expect(await send(authority, [extend])).toBeNull();
      net.admin.advanceSlots(1);
      const state = (await conn.getAddressLookupTable(table)).value;
      expect(state?.state.addresses).toHaveLength(2);
      expect(state?.state.authority?.equals(authority.publicKey)).toBe(true);
    }
  });

  it("accepts a slot up to 510 slots old and slot 0, refuses an older or a future one", async () => {
    const authority = await funded();
    net.admin.advanceSlots(600);
    const now = await conn.getSlot();
    expect(await send(authority, [createTable(authority, now - 510)[0]])).toBeNull();
    expect(await send(authority, [createTable(authority, 0)[0]])).toBeNull();
    for (const bad of [now - 511, now - 512, now + 1]) {
      const err = await send(authority, [createTable(authority, bad)[0]]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SendTransactionError);
      expect((err as SendTransactionError).message).toMatch(
        /InvalidInstructionData|invalid instruction data/,
      );
    }
  });

  it("the Clock and SlotHashes accounts show the current slot", async () => {
    net.admin.advanceSlots(3);
    const slot = BigInt(await conn.getSlot());
    const clock = (await conn.getAccountInfo(SYSVAR_CLOCK_PUBKEY))!.data;
    expect(clock.readBigUInt64LE(0)).toBe(slot);
    const hashes = decodeSlotHashes((await conn.getAccountInfo(SYSVAR_SLOT_HASHES_PUBKEY))!.data);
    expect(slot).toBeGreaterThan(600n);
    expect(hashes).toHaveLength(512);
    expect(hashes.map((h) => h.slot).slice(0, 3)).toEqual([slot, slot - 1n, slot - 2n]);
    expect(hashes.map((h) => h.slot).slice(-2)).toEqual([slot - 510n, 0n]);
    expect(new Set(hashes.map((h) => h.hash)).size).toBe(512);
    // The newest entry's hash is the slot's blockhash.
    const { blockhash } = await conn.getLatestBlockhash();
    expect(hashes[0]!.hash).toBe(Buffer.from(new PublicKey(blockhash).toBytes()).toString("hex"));
  });
});
