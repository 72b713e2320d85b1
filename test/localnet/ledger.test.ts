import { describe, it, expect } from "vitest";
import {
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  ComputeBudgetProgram,
  VersionedTransaction,
  TransactionMessage,
} from "@solana/web3.js";
import bs58 from "bs58";
import { createLedger, TransactionRejected } from "../../localnet/ledger/index.js";
import type { Ledger } from "../../localnet/ledger/index.js";
import { ProgramFailure } from "../../localnet/programs/types.js";
import type { EmulatedProgram } from "../../localnet/programs/types.js";

const FAKE_PROGRAM = new PublicKey("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P");

/** A test program: data[0]=1 moves 1,000,000 lamports from account 0 (signer) to 1 by CPI and writes account 2; data[1]=1 then fails with 6004. */
function testProgram(): EmulatedProgram {
  return {
    programId: FAKE_PROGRAM,
    execute(ctx) {
      const [from, to, state] = ctx.accounts;
      ctx.log("Program log: Instruction: Test");
      ctx.ledger.invoke(
        SystemProgram.transfer({ fromPubkey: from!.pubkey, toPubkey: to!.pubkey, lamports: 1_000_000 }),
      );
      ctx.ledger.setAccount(state!.pubkey, {
        lamports: ctx.ledger.rentExemptMinimum(8),
        data: new Uint8Array(8).fill(7),
        owner: FAKE_PROGRAM,
        executable: false,
      });
      if (ctx.data[1] === 1) throw new ProgramFailure(6004, "slippage: too much SOL required");
    },
  };
}

function signed(
  ledger: Ledger,
  payer: Keypair,
  ixs: TransactionInstruction[],
  signers: Keypair[] = [],
): Uint8Array {
  const tx = new Transaction({ feePayer: payer.publicKey, ...blockhashOf(ledger) }).add(...ixs);
  tx.sign(payer, ...signers);
  return tx.serialize();
}

function blockhashOf(ledger: Ledger) {
  const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash();
  return { blockhash, lastValidBlockHeight: Number(lastValidBlockHeight) };
}

function funded(ledger: Ledger, lamports = 10_000_000_000n): Keypair {
  const k = Keypair.generate();
  ledger.fund(k.publicKey, lamports);
  return k;
}

describe("ledger", () => {
  it("transfers SOL and charges 5000 lamports per signature plus the priority fee", () => {
    const ledger = createLedger();
    const a = funded(ledger);
    const b = Keypair.generate();
    const rec = ledger.processTransaction(
      signed(ledger, a, [
        ComputeBudgetProgram.setComputeUnitLimit({ units: 100_000 }),
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 15 }),
        SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 1_000_000 }),
      ]),
    );
    expect(rec.err).toBeNull();
    // 100_000 CU × 15 µlamports = 1.5 lamports → ceil = 2.
    expect(rec.fee).toBe(5002n);
    expect(ledger.getAccount(b.publicKey)?.lamports).toBe(1_000_000n);
    expect(ledger.getAccount(a.publicKey)?.lamports).toBe(10_000_000_000n - 1_000_000n - 5002n);
    expect(ledger.signatureStatus(rec.signature)?.confirmationStatus).toBe("processed");
    ledger.advanceSlots(1);
    expect(ledger.signatureStatus(rec.signature)?.confirmationStatus).toBe("confirmed");
    ledger.advanceSlots(31);
    expect(ledger.signatureStatus(rec.signature)?.confirmationStatus).toBe("finalized");
  });

  it("keeps no decoding of a landed transaction's wire (its record holds the wire for good)", () => {
    const ledger = createLedger();
    const a = funded(ledger);
    const wire = signed(ledger, a, [
      SystemProgram.transfer({
        fromPubkey: a.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1,
      }),
    ]);
    const before = ledger.decodeClientTransaction(wire);
    ledger.processTransaction(wire);
    expect(ledger.decodeClientTransaction(wire)).not.toBe(before);
    expect(() => ledger.processTransaction(wire)).toThrow(/already been processed/);
  });

  it("rolls back a failed transaction but still charges its fee", () => {
    const ledger = createLedger();
    const a = funded(ledger, 1_000_000_000n);
    const b = Keypair.generate();
    const rec = ledger.processTransaction(
      signed(ledger, a, [
        SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 1_000_000 }),
        SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 5_000_000_000 }),
      ]),
    );
    expect(rec.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
    expect(ledger.getAccount(b.publicKey)).toBeNull();
    expect(ledger.getAccount(a.publicKey)?.lamports).toBe(1_000_000_000n - 5000n);
    expect(rec.logs.at(-1)).toBe(
      "Program 11111111111111111111111111111111 failed: custom program error: 0x1",
    );
  });

  it("reports an emulated program failure like mainnet and undoes its CPI and writes", () => {
    const ledger = createLedger({ programs: [testProgram()] });
    const a = funded(ledger);
    const to = Keypair.generate().publicKey;
    const state = Keypair.generate().publicKey;
    const ix = (fail: number) =>
      new TransactionInstruction({
        programId: FAKE_PROGRAM,
        keys: [
          { pubkey: a.publicKey, isSigner: true, isWritable: true },
          { pubkey: to, isSigner: false, isWritable: true },
          { pubkey: state, isSigner: false, isWritable: true },
          { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
        ],
        data: Buffer.from([1, fail]),
      });
    const failed = ledger.processTransaction(signed(ledger, a, [ix(1)]));
    expect(failed.err).toEqual({ InstructionError: [0, { Custom: 6004 }] });
    expect(failed.logs[0]).toBe(`Program ${FAKE_PROGRAM.toBase58()} invoke [1]`);
    expect(failed.logs).toContain("Program 11111111111111111111111111111111 invoke [2]");
    expect(failed.logs.at(-1)).toBe(
      `Program ${FAKE_PROGRAM.toBase58()} failed: custom program error: 0x1774`,
    );
    expect(ledger.getAccount(to)).toBeNull();
    expect(ledger.getAccount(state)).toBeNull();

    const ok = ledger.processTransaction(signed(ledger, a, [ix(0)]));
    expect(ok.err).toBeNull();
    expect(ledger.getAccount(to)?.lamports).toBe(1_000_000n);
    expect(ledger.getAccount(state)?.owner.equals(FAKE_PROGRAM)).toBe(true);
  });

  it("applies a bundle wholly or not at all", () => {
    const ledger = createLedger();
    const a = funded(ledger, 1_000_000_000n);
    const b = Keypair.generate();
    const t1 = signed(ledger, a, [
      SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 1e6 }),
    ]);
    const t2 = signed(ledger, a, [
      SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 2e6 }),
    ]);
    const t3 = signed(ledger, a, [
      SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 5_000_000_000 }),
    ]);
    const out = ledger.processBundle([t1, t2, t3]);
    expect(out.landed).toBe(false);
    expect(ledger.getAccount(b.publicKey)).toBeNull();
    expect(ledger.getAccount(a.publicKey)?.lamports).toBe(1_000_000_000n);
    const sig1 = VersionedTransaction.deserialize(t1).signatures[0]!;
    expect(ledger.getTransaction(bs58.encode(sig1))).toBeUndefined();
    const good = ledger.processBundle([t1, t2]);
    expect(good.landed).toBe(true);
    expect(ledger.getAccount(b.publicKey)?.lamports).toBe(3_000_000n);
  });

  it("rejects missing signers, bad signatures, expired blockhashes and duplicates", () => {
    const ledger = createLedger();
    const a = funded(ledger);
    const other = funded(ledger);
    const msg = new TransactionMessage({
      payerKey: a.publicKey,
      recentBlockhash: ledger.latestBlockhash().blockhash,
      instructions: [
        SystemProgram.transfer({ fromPubkey: other.publicKey, toPubkey: a.publicKey, lamports: 1 }),
      ],
    }).compileToV0Message();
    const missing = new VersionedTransaction(msg);
    missing.sign([a]);
    expect(() => ledger.processTransaction(missing.serialize())).toThrow(/missing signature/);

    const bad = new VersionedTransaction(msg);
    bad.sign([a, other]);
    bad.signatures[1]![0]! ^= 1;
    expect(() => ledger.processTransaction(bad.serialize())).toThrow(/invalid signature/);

    const old = signed(ledger, a, [
      SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: other.publicKey, lamports: 1 }),
    ]);
    ledger.advanceSlots(151);
    try {
      ledger.processTransaction(old);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TransactionRejected);
      expect((e as TransactionRejected).err).toBe("BlockhashNotFound");
    }

    const fresh = signed(ledger, a, [
      SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: other.publicKey, lamports: 1 }),
    ]);
    ledger.processTransaction(fresh);
    expect(() => ledger.processTransaction(fresh)).toThrow(/already been processed/);
  });

  it("simulates without changing state", () => {
    const ledger = createLedger();
    const a = funded(ledger);
    const b = Keypair.generate();
    const wire = signed(ledger, a, [
      SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 1e6 }),
    ]);
    const sim = ledger.simulateTransaction(wire, { accounts: [b.publicKey.toBase58()] });
    expect(sim.err).toBeNull();
    expect(sim.accounts?.[0]?.lamports).toBe(1_000_000n);
    expect(ledger.getAccount(b.publicKey)).toBeNull();
    expect(ledger.getAccount(a.publicKey)?.lamports).toBe(10_000_000_000n);
  });

  it("admin execute is atomic and throws on failure", () => {
    const ledger = createLedger();
    const b = Keypair.generate().publicKey;
    const op = ledger.operator.publicKey;
    expect(() =>
      ledger.execute([
        SystemProgram.transfer({ fromPubkey: op, toPubkey: b, lamports: 1e6 }),
        SystemProgram.transfer({ fromPubkey: b, toPubkey: op, lamports: 1e9 }),
      ]),
    ).toThrow(/admin transaction failed/);
    expect(ledger.getAccount(b)).toBeNull();
    ledger.execute([SystemProgram.transfer({ fromPubkey: op, toPubkey: b, lamports: 1e6 })]);
    expect(ledger.getAccount(b)?.lamports).toBe(1_000_000n);
  });
});

describe("ledger rent", () => {
  it("fails a transfer that leaves a new account below rent exemption with InsufficientFundsForRent", () => {
    const ledger = createLedger();
    const a = funded(ledger);
    const b = Keypair.generate();
    const rec = ledger.processTransaction(
      signed(ledger, a, [
        SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 1000 }),
      ]),
    );
    expect(rec.err).toEqual({ InsufficientFundsForRent: { account_index: 1 } });
    expect(ledger.getAccount(b.publicKey)).toBeNull();
    expect(rec.fee).toBe(5000n);
  });
});
