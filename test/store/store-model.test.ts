/** Property test: any sequence of wallet operations keeps the store equal to a simple model of the rules. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DuplicateWalletError, openStore } from "../../src/store/index.js";

type Op =
  | { kind: "add"; pk: number; makeDefault: boolean }
  | { kind: "setDefault"; pk: number }
  | { kind: "delete"; pk: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("add" as const),
    pk: fc.integer({ min: 0, max: 5 }),
    makeDefault: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("setDefault" as const), pk: fc.integer({ min: 0, max: 5 }) }),
  fc.record({ kind: fc.constant("delete" as const), pk: fc.integer({ min: 0, max: 5 }) }),
);

describe("store wallet rules against a model", () => {
  it("matches the model and never has more than one default (or none while wallets exist)", async () => {
    const store = await openStore("sqlite::memory:", "./data");
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { maxLength: 25 }), async (ops) => {
          run += 1;
          const name = (n: number) => `r${run}-w${n}`;
          const w = (n: number) => ({
            publicKey: name(n),
            createdAt: "2026-01-01T00:00:00.000",
            ciphertext: "",
            nonce: "",
            tag: "",
            keyId: "k",
          });
          const { apiKey } = await store.createApiKeyWithWallet(`h${run}`, w(100));
          // model: wallets in creation order, and the default
          let model: string[] = [name(100)];
          let dflt: string | undefined = name(100);
          for (const op of ops) {
            const pk = name(op.pk);
            if (op.kind === "add") {
              if (model.includes(pk)) {
                await expect(store.addWallet(apiKey.id, w(op.pk), op.makeDefault)).rejects.toBeInstanceOf(
                  DuplicateWalletError,
                );
              } else {
                await store.addWallet(apiKey.id, w(op.pk), op.makeDefault);
                model.push(pk);
                if (op.makeDefault || dflt === undefined) dflt = pk;
              }
            } else if (op.kind === "setDefault") {
              const r = await store.setDefaultWallet(apiKey.id, pk);
              expect(r !== undefined).toBe(model.includes(pk));
              if (r !== undefined) dflt = pk;
            } else {
              const ok = await store.deleteWallet(apiKey.id, pk);
              expect(ok).toBe(model.includes(pk));
              if (ok) {
                model = model.filter((x) => x !== pk);
                if (dflt === pk) dflt = model[0];
              }
            }
            const actual = await store.listWallets(apiKey.id);
            expect(actual.map((x) => x.publicKey)).toEqual(model);
            expect(actual.filter((x) => x.isDefault).map((x) => x.publicKey)).toEqual(
              dflt === undefined ? [] : [dflt],
            );
          }
        }),
        { numRuns: 60 },
      );
    } finally {
      await store.close();
    }
  });
});
