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
  kid: KeyId;
  signer: boolean;
  writable: boolean;
  invoked: boolean;
  /** Moved to a lookup table (v0): not among the static keys. */
  lookedUp: boolean;
  /** Account index in the compiled message (set once the order is known). */
  position: number;
}

/**
 * A key's raw bytes, the same bytes as a map key (latin1 text: one native copy, no base58) and their first four
 * bytes as a number, compared before the text (two different keys almost never share them).
 */
interface KeyId {
  bytes: Buffer;
  id: string;
  head: number;
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
    kid = { bytes, id: bytes.toString("latin1"), head: bytes.readInt32LE(0) };
    keyIds.set(key, kid);
  }
  return kid;
}
const idOf = (key: PublicKey): string => keyIdOf(key).id;
const sameKey = (a: KeyId, b: KeyId): boolean => a === b || (a.head === b.head && a.id === b.id);

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

/** Bytes of a compact-u16 (shortvec) length. */
export function compactU16Length(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : 3;
}

/** Writes a compact-u16 (shortvec) length at `o`; returns the offset after it. */
export function writeCompactU16(out: Uint8Array, o: number, n: number): number {
  let rest = n;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out[o++] = byte;
      return o;
    }
    out[o++] = byte | 0x80;
  }
}

/**
 * Compiles and serializes the message; the fee payer is the first signer. Written for few allocations per
 * call (issue 18: it ran on every trade with Maps of ids, four filtered copies of the keys and byte arrays
 * grown one push at a time): the keys are one array searched linearly (a message has at most a few dozen),
 * each key's position is kept on its entry, and the bytes are written once into a buffer of the exact size.
 */
export function compileMessage(input: CompileMessageInput): CompiledMessage {
  // Insertion-ordered: payer first, then each instruction's program and accounts, as web3.js orders them.
  const metas: KeyMeta[] = [];
  const meta = (key: PublicKey): KeyMeta => {
    const kid = keyIdOf(key);
    for (let i = 0; i < metas.length; i++) {
      const m = metas[i]!;
      if (sameKey(m.kid, kid)) return m;
    }
    const m: KeyMeta = {
      key,
      kid,
      signer: false,
      writable: false,
      invoked: false,
      lookedUp: false,
      position: 0,
    };
    metas.push(m);
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
  const lookedUpWritable: KeyMeta[] = [];
  const lookedUpReadonly: KeyMeta[] = [];
  if (input.version === "v0" && input.lookupTables !== undefined && input.lookupTables.length > 0) {
    const keepStatic = input.keepStatic ?? [];
    const pinned = (m: KeyMeta): boolean => keepStatic.some((k) => sameKey(keyIdOf(k), m.kid));
    for (const table of input.lookupTables) {
      const index = indexOfTable(table);
      const drain = (writable: boolean, taken: KeyMeta[]): number[] => {
        const found: number[] = [];
        for (const m of metas) {
          if (m.lookedUp || m.signer || m.invoked || m.writable !== writable) continue;
          const at = index.get(m.kid.id);
          if (at === undefined || pinned(m)) continue;
          if (at > 255) throw new MessageCompileError("Max lookup table index exceeded");
          found.push(at);
          taken.push(m);
          m.lookedUp = true;
        }
        return found;
      };
      const writable = drain(true, lookedUpWritable);
      const readonly = drain(false, lookedUpReadonly);
      if (writable.length > 0 || readonly.length > 0) lookups.push({ table: table.key, writable, readonly });
    }
  }

  // Static keys: writable signers, read-only signers, writable others, read-only others (each in insertion
  // order); counted first, then each key's position written on its entry.
  let writableSigners = 0;
  let readonlySigners = 0;
  let writableOthers = 0;
  let readonlyOthers = 0;
  for (const m of metas) {
    if (m.lookedUp) continue;
    if (m.signer) {
      if (m.writable) writableSigners++;
      else readonlySigners++;
    } else if (m.writable) writableOthers++;
    else readonlyOthers++;
  }
  const staticCount = writableSigners + readonlySigners + writableOthers + readonlyOthers;
  if (staticCount > 256) throw new MessageCompileError("Max static account keys length exceeded");
  const signerCount = writableSigners + readonlySigners;
  let ws = 0;
  let rs = writableSigners;
  let wo = signerCount;
  let ro = signerCount + writableOthers;
  const statics = new Array<KeyMeta>(staticCount);
  for (const m of metas) {
    if (m.lookedUp) continue;
    m.position = m.signer ? (m.writable ? ws++ : rs++) : m.writable ? wo++ : ro++;
    statics[m.position] = m;
  }
  let next = staticCount;
  for (const m of lookedUpWritable) m.position = next++;
  for (const m of lookedUpReadonly) m.position = next++;
  if (next > 256) throw new MessageCompileError("Account index overflow encountered");

  const v0 = input.version === "v0";
  let size = (v0 ? 1 : 0) + 3 + compactU16Length(staticCount) + 32 * staticCount + 32;
  size += compactU16Length(input.instructions.length);
  for (const ix of input.instructions) {
    size += 1 + compactU16Length(ix.keys.length) + ix.keys.length;
    size += compactU16Length(ix.data.length) + ix.data.length;
  }
  if (v0) {
    size += compactU16Length(lookups.length);
    for (const l of lookups) {
      size += 32 + compactU16Length(l.writable.length) + l.writable.length;
      size += compactU16Length(l.readonly.length) + l.readonly.length;
    }
  }

  const bytes = Buffer.allocUnsafe(size);
  let o = 0;
  if (v0) bytes[o++] = 0x80;
  bytes[o++] = signerCount;
  bytes[o++] = readonlySigners;
  bytes[o++] = readonlyOthers;
  o = writeCompactU16(bytes, o, staticCount);
  for (const m of statics) o += m.kid.bytes.copy(bytes, o);
  bytes.set(blockhashBytes(input.blockhash), o);
  o += 32;
  o = writeCompactU16(bytes, o, input.instructions.length);
  for (const ix of input.instructions) {
    bytes[o++] = meta(ix.programId).position;
    o = writeCompactU16(bytes, o, ix.keys.length);
    for (const k of ix.keys) bytes[o++] = meta(k.pubkey).position;
    o = writeCompactU16(bytes, o, ix.data.length);
    // Copied, not spread: instruction data can be large.
    o += ix.data.copy(bytes, o);
  }
  if (v0) {
    o = writeCompactU16(bytes, o, lookups.length);
    for (const l of lookups) {
      o += keyIdOf(l.table).bytes.copy(bytes, o);
      o = writeCompactU16(bytes, o, l.writable.length);
      for (const at of l.writable) bytes[o++] = at;
      o = writeCompactU16(bytes, o, l.readonly.length);
      for (const at of l.readonly) bytes[o++] = at;
    }
  }
  const signers = new Array<PublicKey>(signerCount);
  for (let i = 0; i < signerCount; i++) signers[i] = statics[i]!.key;
  return { bytes, signers };
}
