/** Amounts as the client takes them: exact text, or a bigint of base units. Never a float. */

/** A decimal text (passed as is) or a bigint of base units (lamports for SOL fields, atomic units for tokens). */
export type Amount = string | bigint;

const LAMPORTS_PER_SOL = 1_000_000_000n;

/** Exact SOL text of a lamport count: 50_000_000n → "0.05". */
export function lamportsToSol(lamports: bigint): string {
  const sign = lamports < 0n ? "-" : "";
  const abs = lamports < 0n ? -lamports : lamports;
  const whole = abs / LAMPORTS_PER_SOL;
  const frac = (abs % LAMPORTS_PER_SOL).toString().padStart(9, "0").replace(/0+$/, "");
  return `${sign}${whole}${frac === "" ? "" : `.${frac}`}`;
}

/** Lamports of an exact SOL text ("0.05" → 50_000_000n); throws on more than 9 decimals or non-numbers. */
export function solToLamports(sol: string): bigint {
  const m = /^\s*(\d*)(?:\.(\d*))?\s*$/.exec(sol);
  if (m === null || (m[1] === "" && (m[2] ?? "") === "")) throw new RangeError(`not a SOL amount: ${sol}`);
  const frac = m[2] ?? "";
  if (frac.length > 9) throw new RangeError(`SOL amounts have at most 9 decimals: ${sol}`);
  return BigInt(m[1] === "" ? "0" : m[1]!) * LAMPORTS_PER_SOL + BigInt(frac.padEnd(9, "0"));
}

/** A SOL-valued field: a bigint is lamports. */
export function solText(amount: Amount): string {
  return typeof amount === "bigint" ? lamportsToSol(amount) : amount;
}

/** A unit-valued field (token atomic units, lamports): a bigint is written as its integer text. */
export function unitsText(amount: Amount): string {
  return typeof amount === "bigint" ? amount.toString() : amount;
}
