import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { createHash } from "node:crypto";
import bs58 from "bs58";
import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";
import { uiAmountString } from "../../localnet/ledger/token-balances.js";
import {
  parseComputeBudget,
  staticTipLamports,
  transactionFee,
  decodeTransaction,
  resolveMessage,
  ComputeBudgetError,
  signedMessageBytes,
} from "../../localnet/ledger/wire.js";
import { bundleId } from "../../localnet/server/bundle-relay.js";
import { toJson } from "../../localnet/server/json.js";
import { Faults } from "../../localnet/server/faults.js";
import { BlockhashQueue } from "../../localnet/ledger/blockhash-queue.js";

describe("uiAmountString", () => {
  it("round-trips the raw amount for any decimals", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.integer({ min: 0, max: 12 }),
        (amount, decimals) => {
          const s = uiAmountString(amount, decimals);
          const [whole, frac = ""] = s.split(".");
          expect(frac.endsWith("0")).toBe(false);
          expect(BigInt(whole! + frac.padEnd(decimals, "0"))).toBe(amount);
        },
      ),
    );
  });
});

describe("fees", () => {
  it("charges 5000 per signature plus ceil(price × limit / 1e6)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.bigInt({ min: 0n, max: 1_400_000n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (sigs, limit, price) => {
          const fee = transactionFee(sigs, { unitLimit: limit, unitPriceMicroLamports: price });
          const priority = fee - 5000n * BigInt(sigs);
          expect(priority * 1_000_000n >= price * limit).toBe(true);
          expect((priority - 1n) * 1_000_000n < price * limit || priority === 0n).toBe(true);
        },
      ),
    );
  });

  it("defaults the CU limit to 200k per other instruction and rejects duplicate budget instructions", () => {
    const payer = Keypair.generate();
    const ixs = (extra: ReturnType<typeof ComputeBudgetProgram.setComputeUnitPrice>[]) => {
      const tx = new Transaction({
        feePayer: payer.publicKey,
        recentBlockhash: "11111111111111111111111111111111",
      }).add(
        ...extra,
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }),
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 2 }),
      );
      tx.sign(payer);
      return resolveMessage(decodeTransaction(tx.serialize()), () => null).instructions;
    };
    expect(parseComputeBudget(ixs([ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 7 })]))).toEqual(
      {
        unitLimit: 400_000n,
        unitPriceMicroLamports: 7n,
      },
    );
    expect(() =>
      parseComputeBudget(
        ixs([
          ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 7 }),
          ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 8 }),
        ]),
      ),
    ).toThrow(ComputeBudgetError);
  });
});

describe("tips", () => {
  it("sums top-level System transfers to tip accounts only", () => {
    const payer = Keypair.generate();
    const tip = Keypair.generate().publicKey;
    const other = Keypair.generate().publicKey;
    const tx = new Transaction({
      feePayer: payer.publicKey,
      recentBlockhash: "11111111111111111111111111111111",
    }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: tip, lamports: 150_000 }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: other, lamports: 1_000_000 }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: tip, lamports: 50_000 }),
    );
    tx.sign(payer);
    expect(staticTipLamports(decodeTransaction(tx.serialize()), new Set([tip.toBase58()]))).toBe(200_000n);
    expect(
      staticTipLamports(decodeTransaction(tx.serialize()), new Set([new PublicKey(other).toBase58()])),
    ).toBe(1_000_000n);
  });
});

describe("signed message bytes", () => {
  const payer = Keypair.generate();
  const ixs = [
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 7 }),
    SystemProgram.transfer({
      fromPubkey: payer.publicKey,
      toPubkey: Keypair.generate().publicKey,
      lamports: 5,
    }),
  ];
  const blockhash = bs58.encode(new Uint8Array(32).fill(9));
  const legacy = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(...ixs);
  legacy.sign(payer);
  const v0 = new VersionedTransaction(
    new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: ixs,
    }).compileToV0Message(),
  );
  v0.sign([payer]);

  it("are the wire's own bytes when they are what serialize() writes, else the serialization", () => {
    for (const wire of [new Uint8Array(legacy.serialize()), v0.serialize()]) {
      const tx = decodeTransaction(wire);
      const bytes = signedMessageBytes(tx, wire);
      expect(Buffer.from(bytes).equals(Buffer.from(tx.message.serialize()))).toBe(true);
      expect(bytes.buffer).toBe(wire.buffer);
      // A trailing byte is read past by the decoding: the bytes signed are then the serialization's.
      const longer = new Uint8Array([...wire, 0]);
      const viaLonger = signedMessageBytes(decodeTransaction(longer), longer);
      expect(Buffer.from(viaLonger).equals(Buffer.from(tx.message.serialize()))).toBe(true);
      expect(viaLonger.buffer).not.toBe(longer.buffer);
    }
  });
});

describe("bundle id", () => {
  it("matches the block engine's documented example", () => {
    const sigs = [
      "3bC2M9fiACSjkTXZDgeNAuQ4ScTsdKGwR42ytFdhUvikqTmBheUxfsR1fDVsM5ADCMMspuwGkdm1uKbU246x5aE3",
      "8t9hKYEYNbLvNqiSzP96S13XF1C2f1ro271Kdf7bkZ6EpjPLuDff1ywRy4gfaGSTubsM2FeYGDoT64ZwPm1cQUt",
    ];
    expect(bundleId(sigs.map((s) => ({ signatures: [bs58.decode(s)] })))).toBe(
      "892b79ed49138bfb3aa5441f0df6e06ef34f9ee8f3976c15b323605bae0cf51d",
    );
    expect(createHash("sha256").update(sigs.join(",")).digest("hex")).toBe(
      "892b79ed49138bfb3aa5441f0df6e06ef34f9ee8f3976c15b323605bae0cf51d",
    );
  });
});

describe("json", () => {
  it("writes bigints as exact integers", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.string(), (n, s) => {
        const text = toJson({ n, s, rentEpoch: 18446744073709551615n });
        expect(text).toContain(`"n":${n}`);
        expect(text).toContain(`"rentEpoch":18446744073709551615`);
        expect(JSON.parse(text).s).toBe(s);
      }),
    );
  });
});

describe("faults", () => {
  it("fires errorCount times for matching calls only, and errorRate by the injected random", () => {
    const f = new Faults(() => 0.3);
    f.set({ errorCount: 2, methods: ["getSlot"], errorKind: "http500" });
    expect(f.decide("rpc", "getBalance").error).toBeNull();
    expect(f.decide("rpc", "getSlot").error).toBe("http500");
    expect(f.decide("relay", "getSlot").error).toBe("http500");
    expect(f.decide("rpc", "getSlot").error).toBeNull();
    f.set({ errorRate: 0.5 });
    expect(f.decide("bundle", "sendBundle").error).toBe("http429");
    f.set({ errorRate: 0.2 });
    expect(f.decide("bundle", "sendBundle").error).toBeNull();
    expect(() => f.set({ errorRate: 2 })).toThrow(/errorRate/);
  });
});

describe("blockhash queue", () => {
  it("keeps a blockhash valid for exactly 150 slots", () => {
    const q = new BlockhashQueue("seed", 1n);
    const h = q.latest();
    expect(q.lastValidBlockHeight()).toBe(151n);
    for (let i = 0; i < 150; i++) q.advance();
    expect(q.isValid(h)).toBe(true);
    q.advance();
    expect(q.isValid(h)).toBe(false);
    expect(q.isValid("not-a-hash")).toBe(false);
  });
});
