/** localnet/ledger/decoded-wires.ts: one decoding per wire object, never a stale one after the bytes change. */
import { describe, expect, it } from "vitest";
import bs58 from "bs58";
import { Keypair, SystemProgram, Transaction } from "@solana/web3.js";
import { DecodedWires } from "../../localnet/ledger/decoded-wires.js";

function signedWire(lamports: number): Uint8Array {
  const payer = Keypair.generate();
  const tx = new Transaction({
    feePayer: payer.publicKey,
    recentBlockhash: "11111111111111111111111111111111",
  }).add(
    SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports }),
  );
  tx.sign(payer);
  return new Uint8Array(tx.serialize());
}

describe("decoded wires", () => {
  it("decodes a wire object once and names it by its first signature", () => {
    const wires = new DecodedWires();
    const wire = signedWire(1);
    const a = wires.decode(wire);
    expect(wires.decode(wire)).toBe(a);
    expect(a.id).toBe(bs58.encode(wire.subarray(1, 65)));
    // Equal bytes in another object: decoded on their own (the memo is per object).
    expect(wires.decode(new Uint8Array(wire))).not.toBe(a);
  });

  it("decodes again when the bytes of a seen wire were changed in place", () => {
    const wires = new DecodedWires();
    const wire = signedWire(1);
    const a = wires.decode(wire);
    a.verified = true;
    wire[1] = wire[1]! ^ 0xff; // first byte of the signature
    const b = wires.decode(wire);
    expect(b).not.toBe(a);
    expect(b.verified).toBe(false);
    expect(b.id).toBe(bs58.encode(wire.subarray(1, 65)));
  });

  it("decodes a forgotten wire afresh", () => {
    const wires = new DecodedWires();
    const wire = signedWire(1);
    const a = wires.decode(wire);
    wires.forget(wire);
    expect(wires.decode(wire)).not.toBe(a);
  });

  it("throws for bytes that are not a transaction, and keeps nothing", () => {
    const wires = new DecodedWires();
    expect(() => wires.decode(new Uint8Array([1, 2, 3]))).toThrow();
  });
});
