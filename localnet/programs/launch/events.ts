/** `Program data:` event lines, encoded with the IDL's event layouts (as Anchor's emit! logs them). */
import BN from "bn.js";
import { PublicKey } from "@solana/web3.js";
import { launchSdk } from "../../../src/launch/sdk.js";
import type { LogSink } from "./failures.js";
import { pumpCoder } from "./idl-coder.js";

const eventDiscs = new Map<string, number[]>(
  (launchSdk.pumpIdl.events as unknown as { name: string; discriminator: number[] }[]).map((e) => [
    e.name,
    e.discriminator,
  ]),
);

/** Converts bigint fields to BN for the borsh coder. */
function toCoderValue(v: unknown): unknown {
  if (typeof v === "bigint") return new BN(v.toString());
  if (Array.isArray(v)) return v.map(toCoderValue);
  if (v && typeof v === "object" && !(v instanceof PublicKey) && !(v instanceof BN)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toCoderValue(x)]));
  }
  return v;
}

/**
 * Logs `Program data: <base64(disc ‖ borsh(fields) ‖ tail)>` for IDL event `name` (fields camelCase);
 * `tail` carries fields a newer program appends past the SDK's IDL layout.
 */
export function emitEvent(
  log: LogSink,
  name: string,
  fields: Record<string, unknown>,
  tail: Uint8Array = new Uint8Array(0),
): void {
  const disc = eventDiscs.get(name);
  if (!disc) throw new Error(`IDL has no event ${name}`);
  const coder = pumpCoder;
  const typeName = name.charAt(0).toLowerCase() + name.slice(1);
  const body = coder.types.encode(typeName, toCoderValue(fields));
  log(`Program data: ${Buffer.concat([Buffer.from(disc), body, tail]).toString("base64")}`);
}
