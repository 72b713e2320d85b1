/** Loading (or, in sandbox mode, generating) the 32-byte master key that wraps wallet secrets. */
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { ensurePrivateDir } from "../core/private-files.js";
import { join } from "node:path";

/** A start-up problem with the master key; one line, never containing key material. */
export class MasterKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MasterKeyError";
  }
}

export interface MasterKey {
  /** Short public identifier stored beside each record: which key encrypted it. */
  readonly id: string;
  readonly key: Buffer;
}

/** Name of the file sandbox mode generates in DATA_DIR. */
export const SANDBOX_KEY_FILE = "master.key";

/** Key id: first 16 hex chars of a domain-separated SHA-256, so the id reveals nothing useful about the key. */
function masterKeyId(key: Uint8Array): string {
  return createHash("sha256").update("lasertrade-master-key-id:").update(key).digest("hex").slice(0, 16);
}

/** Parses 32 bytes given as 64 hex chars or base64; `source` names the variable in the error. */
export function parseMasterKey(text: string, source: string): MasterKey {
  const t = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(t)) key = Buffer.from(t, "hex");
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) {
    const b = Buffer.from(t, t.includes("-") || t.includes("_") ? "base64url" : "base64");
    if (b.length === 32) key = b;
  }
  if (key === undefined)
    throw new MasterKeyError(`${source} must be 32 bytes as 64 hex characters or base64`);
  return { id: masterKeyId(key), key };
}

export interface MasterKeySettings {
  masterKey: string | undefined;
  masterKeyFile: string | undefined;
  sandbox: boolean;
  dataDir: string;
}

/**
 * Resolves the master key: MASTER_KEY, else MASTER_KEY_FILE, else (sandbox only) DATA_DIR/master.key,
 * generated with mode 0600 on first start. Outside sandbox mode a missing key is an error.
 */
export function loadMasterKey(s: MasterKeySettings): MasterKey & { generated: boolean; file?: string } {
  if (s.masterKey !== undefined) return { ...parseMasterKey(s.masterKey, "MASTER_KEY"), generated: false };
  if (s.masterKeyFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(s.masterKeyFile, "utf8");
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? "read error";
      throw new MasterKeyError(`MASTER_KEY_FILE ${s.masterKeyFile} cannot be read (${code})`);
    }
    return { ...parseMasterKey(text, "MASTER_KEY_FILE"), generated: false, file: s.masterKeyFile };
  }
  if (!s.sandbox) throw new MasterKeyError("MASTER_KEY or MASTER_KEY_FILE is required outside sandbox mode");
  const file = join(s.dataDir, SANDBOX_KEY_FILE);
  if (existsSync(file)) {
    return {
      ...parseMasterKey(readFileSync(file, "utf8"), `sandbox key file ${file}`),
      generated: false,
      file,
    };
  }
  ensurePrivateDir(s.dataDir);
  const key = randomBytes(32);
  // flag "wx": never overwrite a key another process wrote a moment ago.
  writeFileSync(file, key.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return { id: masterKeyId(key), key, generated: true, file };
}

/**
 * PREVIOUS_MASTER_KEYS entries (same formats as MASTER_KEY) as decrypt-only keys; an error names the entry
 * by position, never by value.
 */
export function parsePreviousMasterKeys(entries: readonly string[]): MasterKey[] {
  return entries.map((text, i) => parseMasterKey(text, `PREVIOUS_MASTER_KEYS entry ${i + 1}`));
}
