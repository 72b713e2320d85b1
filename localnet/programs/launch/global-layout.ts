/**
 * An operator switch for pre-flight tests: the launch Global account rewritten the way a program upgrade that
 * changed its layout would leave it (an 8-byte field inserted after the discriminator, so every later field
 * moves), and back. The emulated program keeps reading the genesis layout, as an old client would.
 */
import type { AdminLedger } from "../types.js";
import { GLOBAL_ADDRESS } from "./pda.js";

const DISCRIMINATOR_BYTES = 8;
const INSERTED_FIELD = Uint8Array.from([7, 0, 0, 0, 0, 0, 0, 0]);
const originals = new WeakMap<AdminLedger, Uint8Array>();

/** Sets the launch Global account's layout: "altered" (shifted fields) or "original" (the bytes it had). */
export function setGlobalLayout(ledger: AdminLedger, layout: "original" | "altered"): void {
  const account = ledger.getAccount(GLOBAL_ADDRESS);
  if (!account) throw new Error("the launch Global account does not exist");
  const original = originals.get(ledger) ?? Uint8Array.from(account.data);
  originals.set(ledger, original);
  let data = original;
  if (layout === "altered") {
    data = new Uint8Array(original.length + INSERTED_FIELD.length);
    data.set(original.subarray(0, DISCRIMINATOR_BYTES), 0);
    data.set(INSERTED_FIELD, DISCRIMINATOR_BYTES);
    data.set(original.subarray(DISCRIMINATOR_BYTES), DISCRIMINATOR_BYTES + INSERTED_FIELD.length);
  }
  ledger.setAccount(GLOBAL_ADDRESS, {
    ...account,
    data,
    lamports: ledger.rentExemptMinimum(data.length),
  });
}
