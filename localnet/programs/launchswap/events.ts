/**
 * `Program data:` event lines of the swap program, encoded with the IDL's event layouts (Anchor's
 * emit!). Fee fields: `protocol_fee` is what the protocol fee recipient receives and `buyback_fee`
 * the buyback share split off it; with cashback the creator fee is reported as `cashback`.
 */
import BN from "bn.js";
import { SWAP_CODER, SWAP_IDL } from "./codec.js";

function toCoderValue(v: unknown): unknown {
  if (typeof v === "bigint") return new BN(v.toString());
  return v;
}

/**
 * Logs `Program data: <base64(disc ‖ borsh(fields) ‖ tail)>` for IDL event `name` (snake_case fields);
 * `tail` carries fields a newer program appends past the SDK's IDL layout.
 */
export function emitSwapEvent(
  log: (line: string) => void,
  name: string,
  fields: Record<string, unknown>,
  tail: Uint8Array = new Uint8Array(0),
): void {
  const ev = (SWAP_IDL.events ?? []).find((e) => e.name === name);
  if (!ev) throw new Error(`swap IDL has no event ${name}`);
  const value = Object.fromEntries(Object.entries(fields).map(([k, x]) => [k, toCoderValue(x)]));
  const body = SWAP_CODER.types.encode(name, value);
  log(`Program data: ${Buffer.concat([Buffer.from(ev.discriminator), body, tail]).toString("base64")}`);
}
