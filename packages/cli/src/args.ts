/** Pure parsing of the CLI's positional forms (split destinations, comma lists). */
import type { SplitDestinationInput } from "@lasertrade/client";

/** `addr` (equal share), `addr=0.1` (fixed SOL) or `addr=25%` (percent of the total). */
export function parseDestination(arg: string): SplitDestinationInput {
  const eq = arg.indexOf("=");
  if (eq < 0) return { wallet: arg };
  const wallet = arg.slice(0, eq);
  const value = arg.slice(eq + 1).trim();
  if (wallet === "" || value === "")
    throw new Error(`destination "${arg}": use ADDRESS, ADDRESS=SOL or ADDRESS=PERCENT%`);
  return value.endsWith("%") ? { wallet, percent: value.slice(0, -1).trim() } : { wallet, sol: value };
}

/** "a,b , c" → ["a", "b", "c"]. */
export function commaList(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
