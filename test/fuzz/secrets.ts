/**
 * Every secret the fuzz run has seen (API keys, wallet secrets in base58 and byte forms, the vault key) and a
 * scan of log lines for any of them. Lines are cut into candidate tokens (long base58/base64/hex runs and
 * comma-separated byte lists), so a scan costs about the same however many secrets are registered.
 */
import bs58 from "bs58";

/** A secret found in a log line. */
export interface SecretHit {
  line: number;
  kind: string;
}

const TOKEN = /[A-Za-z0-9_+/=-]{16,}/g;
const BYTE_LIST = /\d{1,3}(?:\s*,\s*\d{1,3}){15,}/g;

/** Secrets registry and scanner. */
export class SecretRegistry {
  private readonly byText = new Map<string, string>();
  private readonly lengths = new Set<number>();
  private readonly byteLists: { text: string; kind: string }[] = [];

  /** Registers a secret text (shorter than 16 characters is ignored: it cannot be told from noise). */
  add(text: string, kind: string): void {
    if (text.length < 16 || this.byText.has(text)) return;
    this.byText.set(text, kind);
    this.lengths.add(text.length);
  }

  /** Registers secret bytes in each form a log could carry them: base58, hex, base64, a decimal byte list. */
  addBytes(bytes: Uint8Array, kind: string): void {
    const buf = Buffer.from(bytes);
    this.add(bs58.encode(buf), `${kind} (base58)`);
    this.add(buf.toString("hex"), `${kind} (hex)`);
    this.add(buf.toString("base64"), `${kind} (base64)`);
    // The private half alone (first 32 bytes of a 64-byte key) is as secret as the whole.
    if (buf.length === 64) this.addBytes(buf.subarray(0, 32), `${kind} private half`);
    const list = Array.from(buf).join(",");
    if (!this.byteLists.some((b) => b.text === list))
      this.byteLists.push({ text: list, kind: `${kind} (bytes)` });
  }

  /** Registers a base58 wallet secret text and its decoded bytes. */
  addWalletSecret(base58: string, kind: string): void {
    this.add(base58, kind);
    try {
      this.addBytes(bs58.decode(base58), kind);
    } catch {
      // not base58: only its text form can leak
    }
  }

  /** Count of registered secret forms. */
  get size(): number {
    return this.byText.size + this.byteLists.length;
  }

  /** The secrets found in `lines` (index and kind, never the secret itself). */
  scan(lines: readonly string[]): SecretHit[] {
    const hits: SecretHit[] = [];
    lines.forEach((line, i) => {
      const kind = this.findIn(line);
      if (kind !== undefined) hits.push({ line: i, kind });
    });
    return hits;
  }

  /** The kind of the first secret found in `line`, if any. */
  findIn(line: string): string | undefined {
    for (const m of line.matchAll(TOKEN)) {
      const token = m[0];
      for (const len of this.lengths) {
        for (let at = 0; at + len <= token.length; at += 1) {
          const kind = this.byText.get(token.slice(at, at + len));
          if (kind !== undefined) return kind;
        }
      }
    }
    for (const m of line.matchAll(BYTE_LIST)) {
      const list = m[0].replace(/\s+/g, "");
      const found = this.byteLists.find((b) => list.includes(b.text));
      if (found !== undefined) return found.kind;
    }
    return undefined;
  }
}
