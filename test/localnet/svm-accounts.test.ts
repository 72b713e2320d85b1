/** readAccount: the direct read through LiteSVM's binding answers exactly what its public getAccount does. */
import { Keypair, PublicKey } from "@solana/web3.js";
import { LiteSVM } from "litesvm";
import { describe, expect, it } from "vitest";
import { readAccount, writeAccount } from "../../localnet/ledger/svm-accounts.js";

const TOKEN_PROGRAM = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");

describe("readAccount", () => {
  it("reads the same state through the binding as through the public API, and null for missing or empty", () => {
    const svm = new LiteSVM();
    // The fast path needs the binding; a LiteSVM upgrade that hides it would quietly slow the localnet down.
    expect(typeof (svm as unknown as { inner?: { getAccount?: unknown } }).inner?.getAccount).toBe(
      "function",
    );
    // Only the public method: readAccount falls back to it when no binding is exposed.
    const publicOnly = { getAccount: svm.getAccount.bind(svm) } as unknown as LiteSVM;
    const full = Keypair.generate().publicKey;
    const empty = Keypair.generate().publicKey;
    const missing = Keypair.generate().publicKey;
    writeAccount(svm, full, {
      lamports: 7_000_000n,
      data: Uint8Array.from([1, 2, 3]),
      owner: TOKEN_PROGRAM,
      executable: false,
    });
    writeAccount(svm, empty, {
      lamports: 0n,
      data: new Uint8Array(0),
      owner: TOKEN_PROGRAM,
      executable: false,
    });

    for (const key of [full, empty, missing])
      expect(readAccount(svm, key)).toEqual(readAccount(publicOnly, key));
    const state = readAccount(svm, full)!;
    expect(state.lamports).toBe(7_000_000n);
    expect([...state.data]).toEqual([1, 2, 3]);
    expect(state.owner.equals(TOKEN_PROGRAM)).toBe(true);
    expect(readAccount(svm, empty)).toBeNull();
    expect(readAccount(svm, missing)).toBeNull();
    // The returned data is a copy: changing it does not change the ledger.
    state.data[0] = 9;
    expect(readAccount(svm, full)!.data[0]).toBe(1);
  });
});
