/** Output: aligned tables for people, exact JSON for scripts, explorer links for signatures. */
import { stringify } from "lossless-json";

type Row = Record<string, unknown>;

/** JSON text with bigints written as exact JSON numbers. */
export function toJson(value: unknown, indent = 2): string {
  return stringify(value, null, indent) ?? "null";
}

const isRow = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);

function cell(v: unknown): string {
  if (v === null || v === undefined) return "-";
  if (typeof v === "object")
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x));
  return String(v);
}

/** Columns aligned to their widest cell, a header row first. */
export function table(rows: Row[], columns?: string[]): string {
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = [cols, ...rows.map((r) => cols.map((c) => cell(r[c])))];
  const widths = cols.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  return cells
    .map((line) =>
      line
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** An object as `key  value` lines (nested objects dotted); lists of objects as tables after them. */
export function describe(value: unknown, link: (signature: string) => string): string {
  if (Array.isArray(value))
    return value.length === 0 ? "(none)" : table(value.map((v) => (isRow(v) ? v : { value: v })));
  if (!isRow(value)) return cell(value);
  const pairs: [string, string][] = [];
  const tables: string[] = [];
  const walk = (obj: Row, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix + k;
      if (Array.isArray(v) && v.some(isRow)) tables.push(`${key}:\n${table(v.filter(isRow))}`);
      else if (isRow(v)) walk(v, `${key}.`);
      else {
        pairs.push([key, cell(v)]);
        if (k === "signature" && typeof v === "string") pairs.push(["explorer", link(v)]);
      }
    }
  };
  walk(value, "");
  const width = Math.max(0, ...pairs.map(([k]) => k.length));
  const lines = pairs.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
  return [lines.join("\n"), ...tables].filter((s) => s !== "").join("\n\n");
}

/** The link of a signature from a `{signature}` template. */
export function explorerLink(template: string, signature: string): string {
  return template.replaceAll("{signature}", signature);
}

export const MAINNET_EXPLORER = "https://solscan.io/tx/{signature}";

/** An explorer link for a custom cluster (the sandbox's localnet RPC). */
export function customClusterExplorer(rpcUrl: string): string {
  return `https://explorer.solana.com/tx/{signature}?cluster=custom&customUrl=${encodeURIComponent(rpcUrl)}`;
}
