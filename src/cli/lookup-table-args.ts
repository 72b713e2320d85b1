/** Pure parts of `npm run lookup-table`: its flags and the authority key file's two formats. */
import bs58 from "bs58";
import { PublicKey } from "@solana/web3.js";

/** A problem with how the command was called (exit code 2); the message never quotes key material. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The command's flags. */
export interface LookupTableArgs {
  /** Path of the paying authority's key file. */
  authorityPath: string;
  /** An existing table to extend instead of creating one. */
  table: PublicKey | undefined;
}

export const LOOKUP_TABLE_USAGE =
  "usage: npm run lookup-table -- --authority <key file: 64-byte JSON array or base58> [--table <existing table address>]";

/** Parses `--authority <path>` and `--table <address>` (also `--flag=value`); throws UsageError. */
export function parseLookupTableArgs(argv: readonly string[]): LookupTableArgs {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    if (name !== "--authority" && name !== "--table") throw new UsageError(`unknown argument "${name}"`);
    if (values.has(name)) throw new UsageError(`${name} given twice`);
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "" || value.startsWith("--")) {
      throw new UsageError(`${name} needs a value`);
    }
    values.set(name, value);
  }
  const authorityPath = values.get("--authority");
  if (authorityPath === undefined) throw new UsageError("--authority <key file> is required");
  const tableRaw = values.get("--table");
  let table: PublicKey | undefined;
  if (tableRaw !== undefined) {
    try {
      table = new PublicKey(tableRaw);
    } catch {
      throw new UsageError(`--table is not a base58 address: "${tableRaw}"`);
    }
  }
  return { authorityPath, table };
}

/**
 * The 64-byte secret key in a key file: a JSON array of 64 integers 0..255 (solana-keygen's format) or one
 * base58 string. Throws UsageError naming the file only (the content may be a secret).
 */
export function parseSecretKeyFile(text: string, path: string): Uint8Array {
  const t = text.trim();
  const bad = (why: string) =>
    new UsageError(`key file ${path} ${why} (expected a 64-byte JSON array or a base58 secret key)`);
  if (t.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(t);
    } catch {
      throw bad("is not valid JSON");
    }
    if (!Array.isArray(parsed) || parsed.length !== 64) throw bad("does not hold 64 numbers");
    if (!parsed.every((n) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 255)) {
      throw bad("holds values outside 0..255");
    }
    return Uint8Array.from(parsed as number[]);
  }
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(t);
  } catch {
    throw bad("is neither a JSON array nor base58");
  }
  if (bytes.length !== 64) throw bad(`decodes to ${bytes.length} bytes, not 64`);
  return bytes;
}
