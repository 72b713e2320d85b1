/** Amount formatting: every amount is a decimal string of lamports or atomic units, kept as bigint. */
const LAMPORTS = 1_000_000_000n;

/** A bigint from an API amount (string, number or null). */
export function big(v: string | number | bigint | null | undefined): bigint {
  if (v === null || v === undefined || v === "") return 0n;
  try {
    return BigInt(v);
  } catch {
    return 0n;
  }
}

/** `units` with `decimals` places, trimmed to `shown` places (default all), sign kept. */
export function fixed(units: bigint, decimals: number, shown = decimals): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  let frac = (abs % scale).toString().padStart(decimals, "0").slice(0, shown);
  frac = frac.replace(/0+$/, "");
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${neg ? "-" : ""}${wholeText}${frac === "" ? "" : `.${frac}`}`;
}

/** Lamports as SOL text with up to `shown` decimals (default 4). */
export function sol(lamports: string | number | bigint | null | undefined, shown = 4): string {
  return fixed(big(lamports), 9, shown);
}

/** Signed SOL text: a plus sign on gains. */
export function signedSol(lamports: string | bigint | null | undefined, shown = 4): string {
  const v = big(lamports);
  return `${v > 0n ? "+" : ""}${sol(v, shown)}`;
}

/** "gain", "loss" or "" for colouring a signed amount. */
export function tone(lamports: string | bigint | null | undefined): string {
  const v = big(lamports);
  return v > 0n ? "gain" : v < 0n ? "loss" : "";
}

/** Lamports as a JS number of SOL, for the chart only (never for arithmetic on amounts). */
export function solNumber(lamports: bigint): number {
  return Number(lamports) / Number(LAMPORTS);
}

/** `abcd…wxyz` for an address or signature. */
export function short(text: string | null | undefined, keep = 4): string {
  if (text === null || text === undefined) return "";
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}

/** A timestamp in the browser's local time. */
export function when(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return "";
  const d = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
