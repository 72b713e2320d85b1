/**
 * Compiles instructions into Solana message bytes (v0 with address lookup tables, or legacy) in one pass,
 * with the same account order, header and lookups as web3.js's `TransactionMessage.compileToV0Message` /
 * `compileToLegacyMessage` followed by `serialize()` (a unit test holds the two byte for byte). It exists for
 * speed: web3.js keys its account map by base58 strings and serializes through buffer-layout into a 1232-byte
 * scratch buffer, which cost more than the rest of signing; here keys are compared as raw bytes.
 */
import type { AddressLookupTableAccount, PublicKey, TransactionInstruction } from "@solana/web3.js";
import bs58 from "bs58";

/** Inputs of `compileMessage`. */
export interface CompileMessageInput {
  payer: PublicKey;
  instructions: readonly TransactionInstruction[];
  /** Base58 recent blockhash. */
  blockhash: string;
  version: "v0" | "legacy";
  /** v0 only: tables searched (in order) for non-signer, non-program accounts. */
  lookupTables?: readonly AddressLookupTableAccount[];
  /** Accounts that stay static even when a table holds them (relays find tips only among static keys). */
  keepStatic?: readonly PublicKey[];
}

/** Message bytes and the accounts that must sign them, in signature order. */
export interface CompiledMessage {
  bytes: Uint8Array;
  signers: PublicKey[];
}

/** Thrown when the accounts cannot be encoded (over 256 keys or a table index past 255). */
export class MessageCompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MessageCompileError";
  }
}

interface KeyMeta {
  key: PublicKey;
  bytes: Buffer;
  id: string;
  signer: boolean;
  writable: boolean;
  invoked: boolean;
}

/** A key's raw bytes and the same bytes as a map key (latin1 text: one native copy, no base58). */
interface KeyId {
  bytes: Buffer;
  id: string;
}

// web3.js converts a key's BN to bytes on every toBuffer(); most keys of a trade are the same instances from
// one trade to the next (memoized PDAs and plans, program ids, cached configs), so keep their bytes and their
// map key (a key is looked up three times per compile). Only read here.
const keyIds = new WeakMap<PublicKey, KeyId>();
function keyIdOf(key: PublicKey): KeyId {
  let kid = keyIds.get(key);
  if (kid === undefined) {
    // An own 32-byte allocation: a kept slice of Node's shared 8 KB pool would keep the whole slab alive.
    const bytes = Buffer.alloc(32);
    key.toBuffer().copy(bytes);
    kid = { bytes, id: bytes.toString("latin1") };
    keyIds.set(key, kid);
  }
  return kid;
}
const bytesOf = (key: PublicKey): Buffer => keyIdOf(key).bytes;
const idOf = (key: PublicKey): string => keyIdOf(key).id;

// Table address → its entries' ids and first index, built once per table object (the chain caches keep the
// decoded tables for as long as the account does not change).
const tableIndexes = new WeakMap<AddressLookupTableAccount, Map<string, number>>();
function indexOfTable(table: AddressLookupTableAccount): Map<string, number> {
  let map = tableIndexes.get(table);
  if (map === undefined) {
    map = new Map();
    table.state.addresses.forEach((a, i) => {
      const id = idOf(a);
      if (!map!.has(id)) map!.set(id, i);
    });
    tableIndexes.set(table, map);
  }
  return map;
}

// The last blockhash decoded: every transaction of the same ~400 ms slot shares it.
let lastBlockhash: { text: string; bytes: Uint8Array } = { text: "", bytes: new Uint8Array(32) };
function blockhashBytes(text: string): Uint8Array {
  if (lastBlockhash.text !== text) {
    const bytes = bs58.decode(text);
    if (bytes.length !== 32) throw new MessageCompileError("recent blockhash must be 32 bytes");
    lastBlockhash = { text, bytes };
  }
  return lastBlockhash.bytes;
}

/** Appends a compact-u16 (shortvec) length. */
export function pushCompactU16(out: number[], n: number): void {
  let rest = n;
  for (;;) {
    let byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out.push(byte);
      return;
    }
    byte |= 0x80;
    out.push(byte);
  }
}

/** Compiles and serializes the message; the fee payer is the first signer. */
export function compileMessage(input: CompileMessageInput): CompiledMessage {
  // Insertion-ordered: payer first, then each instruction's program and accounts, as web3.js orders them.
  const metas = new Map<string, KeyMeta>();
  const meta = (key: PublicKey): KeyMeta => {
    const { bytes, id } = keyIdOf(key);
    let m = metas.get(id);
    if (m === undefined) {
      m = { key, bytes, id, signer: false, writable: false, invoked: false };
      metas.set(id, m);
    }
    return m;
  };
  const payer = meta(input.payer);
  payer.signer = true;
  payer.writable = true;
  for (const ix of input.instructions) {
    meta(ix.programId).invoked = true;
    for (const k of ix.keys) {
      const m = meta(k.pubkey);
      m.signer ||= k.isSigner;
      m.writable ||= k.isWritable;
    }
  }

  // Lookups (v0): per table, writable then read-only non-signer accounts that no instruction invokes.
  const lookups: { table: PublicKey; writable: number[]; readonly: number[] }[] = [];
  const lookedUpWritable: string[] = [];
  const lookedUpReadonly: string[] = [];
  if (input.version === "v0" && input.lookupTables !== undefined && input.lookupTables.length > 0) {
    const pinned = new Set((input.keepStatic ?? []).map(idOf));
    for (const table of input.lookupTables) {
      const index = indexOfTable(table);
      const drain = (writable: boolean, ids: string[]): number[] => {
        const found: number[] = [];
        for (const [id, m] of metas) {
          if (m.signer || m.invoked || m.writable !== writable || pinned.has(id)) continue;
          const at = index.get(id);
          if (at === undefined) continue;
          if (at > 255) throw new MessageCompileError("Max lookup table index exceeded");
          found.push(at);
          ids.push(id);
          metas.delete(id);
        }
        return found;
      };
      const writable = drain(true, lookedUpWritable);
      const readonly = drain(false, lookedUpReadonly);
      if (writable.length > 0 || readonly.length > 0) lookups.push({ table: table.key, writable, readonly });
    }
  }

  const all = [...metas.values()];
  if (all.length > 256) throw new MessageCompileError("Max static account keys length exceeded");
  const writableSigners = all.filter((m) => m.signer && m.writable);
  const readonlySigners = all.filter((m) => m.signer && !m.writable);
  const writableOthers = all.filter((m) => !m.signer && m.writable);
  const readonlyOthers = all.filter((m) => !m.signer && !m.writable);
  const statics = [...writableSigners, ...readonlySigners, ...writableOthers, ...readonlyOthers];

  const position = new Map<string, number>();
  statics.forEach((m, i) => position.set(m.id, i));
  let next = statics.length;
  for (const id of lookedUpWritable) position.set(id, next++);
  for (const id of lookedUpReadonly) position.set(id, next++);
  if (next > 256) throw new MessageCompileError("Account index overflow encountered");

  const head: number[] = [];
  if (input.version === "v0") head.push(0x80);
  head.push(writableSigners.length + readonlySigners.length, readonlySigners.length, readonlyOthers.length);
  pushCompactU16(head, statics.length);

  const tail: number[] = [];
  pushCompactU16(tail, input.instructions.length);
  const ixData: Buffer[] = [];
  const indexOf = (key: PublicKey): number => position.get(idOf(key))!;
  for (const ix of input.instructions) {
    tail.push(indexOf(ix.programId));
    pushCompactU16(tail, ix.keys.length);
    for (const k of ix.keys) tail.push(indexOf(k.pubkey));
    pushCompactU16(tail, ix.data.length);
    // Instruction data goes in as a marker; copied below without spreading large buffers into arrays.
    ixData.push(ix.data);
    tail.push(-1);
  }
  const lookupBytes: number[] = [];
  if (input.version === "v0") {
    pushCompactU16(lookupBytes, lookups.length);
    for (const l of lookups) {
      for (const b of bytesOf(l.table)) lookupBytes.push(b);
      pushCompactU16(lookupBytes, l.writable.length);
      lookupBytes.push(...l.writable);
      pushCompactU16(lookupBytes, l.readonly.length);
      lookupBytes.push(...l.readonly);
    }
  }

  const dataLength = ixData.reduce((n, d) => n + d.length, 0);
  const size =
    head.length + 32 * statics.length + 32 + (tail.length - ixData.length) + dataLength + lookupBytes.length;
  const bytes = Buffer.allocUnsafe(size);
  let o = 0;
  for (const b of head) bytes[o++] = b;
  for (const m of statics) o += m.bytes.copy(bytes, o);
  bytes.set(blockhashBytes(input.blockhash), o);
  o += 32;
  let d = 0;
  for (const b of tail) {
    if (b === -1) o += ixData[d++]!.copy(bytes, o);
    else bytes[o++] = b;
  }
  for (const b of lookupBytes) bytes[o++] = b;
  return {
    bytes,
    signers: statics.slice(0, writableSigners.length + readonlySigners.length).map((m) => m.key),
  };
}
