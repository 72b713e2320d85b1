import { describe, expect, it } from "vitest";
import { Keypair, PublicKey } from "@solana/web3.js";
import { createPdaMemo, installPdaMemo } from "../../../src/launch/pda-memo.js";

const program = Keypair.generate().publicKey;

describe("createPdaMemo", () => {
  it("returns what the underlying derivation returns, and derives each seed list once", () => {
    let calls = 0;
    const memo = createPdaMemo(10, (s, p) => {
      calls++;
      return PublicKey.findProgramAddressSync(s, p);
    });
    const seeds = [Buffer.from("bonding-curve"), Keypair.generate().publicKey.toBuffer()];
    const [a, bump] = memo.find(seeds, program);
    const [b, bump2] = memo.find([Buffer.from(seeds[0]!), new Uint8Array(seeds[1]!)], program);
    expect(a.equals(PublicKey.findProgramAddressSync(seeds, program)[0])).toBe(true);
    expect(b.equals(a) && bump === bump2).toBe(true);
    expect(calls).toBe(1);
    expect([memo.hits, memo.misses]).toEqual([1, 1]);
  });

  it("tells seed lists apart by their boundaries and program", () => {
    const memo = createPdaMemo(10);
    const a = memo.find([Buffer.from("ab"), Buffer.from("c")], program)[0];
    const b = memo.find([Buffer.from("a"), Buffer.from("bc")], program)[0];
    const c = memo.find([Buffer.from("ab"), Buffer.from("c")], Keypair.generate().publicKey)[0];
    expect(memo.misses).toBe(3);
    // The runtime concatenates seeds, so the first two are the same address; the third is another program's.
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it("keeps at most `capacity` entries, evicting the least recently used", () => {
    const memo = createPdaMemo(2);
    const seed = (n: number) => [Buffer.from([n])];
    memo.find(seed(1), program);
    memo.find(seed(2), program);
    memo.find(seed(1), program); // 1 is now the most recent
    memo.find(seed(3), program); // evicts 2
    expect(memo.size).toBe(2);
    const misses = memo.misses;
    memo.find(seed(1), program);
    expect(memo.misses).toBe(misses);
    memo.find(seed(2), program);
    expect(memo.misses).toBe(misses + 1);
  });

  it("does not cache failures", () => {
    const memo = createPdaMemo(2);
    expect(() => memo.find([Buffer.alloc(33)], program)).toThrow();
    expect(memo.size).toBe(0);
  });
});

describe("installPdaMemo", () => {
  it("puts one memo in front of PublicKey.findProgramAddressSync, idempotently", () => {
    const memo = installPdaMemo();
    expect(installPdaMemo()).toBe(memo);
    const seeds = [Keypair.generate().publicKey.toBuffer()];
    const before = memo.misses;
    const first = PublicKey.findProgramAddressSync(seeds, program)[0];
    expect(PublicKey.findProgramAddressSync(seeds, program)[0].equals(first)).toBe(true);
    expect(memo.misses).toBe(before + 1);
  });
});
