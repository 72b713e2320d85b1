/**
 * consolidateSol with narrow in-memory collaborators: what it reserves, which price it signs at, and what a
 * failure part-way through reports (the sources already sent), without a cluster.
 */
import { describe, expect, it } from "vitest";
import { Keypair, PublicKey } from "@solana/web3.js";
import type { ChainAssembleInput, ChainTransaction } from "../../../../src/chain/chain.js";
import type { AccountInfo } from "../../../../src/chain/rpc-client.js";
import { SubmissionError } from "../../../../src/chain/submit.js";
import { consolidateSol, type SolDeps } from "../../../../src/domain/sol/consolidate.js";
import { ApiError } from "../../../../src/core/errors.js";
import type { NewExecution, WalletRecord } from "../../../../src/store/index.js";
import { storedExecution } from "../../../helpers/fixtures.js";

const SYSTEM = new PublicKey("11111111111111111111111111111111");

function walletRecord(id: number, publicKey: string): WalletRecord {
  return {
    id,
    seq: id,
    apiKeyId: 1,
    publicKey,
    status: "active",
    isDefault: id === 1,
    createdAt: "2026-01-01T00:00:00.000",
    ciphertext: "",
    nonce: "",
    tag: "",
    keyId: "k",
  };
}

/** A key with `balances.length` wallets (the first is the default) and a chain whose nth send fails when asked. */
function harness(balances: bigint[], failSend?: number) {
  const keypairs = balances.map(() => Keypair.generate());
  const wallets = keypairs.map((k, i) => walletRecord(i + 1, k.publicKey.toBase58()));
  const executions: NewExecution[] = [];
  const assembled: ChainAssembleInput[] = [];
  let sends = 0;
  const byKey = new Map(wallets.map((w, i) => [w.publicKey, balances[i] as bigint]));
  const deps: SolDeps = {
    store: {
      findWallet: async (_k, pk) => wallets.find((w) => w.publicKey === pk),
      findDefaultWallet: async () => wallets[0],
      listWallets: async () => wallets,
      insertExecution: async (e) => {
        executions.push(e);
        return storedExecution(e);
      },
      updateExecution: async () => undefined,
    },
    vault: {
      withKeypair: async (record, fn) =>
        fn(keypairs[wallets.findIndex((w) => w.publicKey === record.publicKey)] as Keypair),
    },
    chain: {
      rpc: {
        getMultipleAccounts: async (keys: PublicKey[]) => ({
          slot: 1,
          value: keys.map((k): AccountInfo | null => {
            const lamports = byKey.get(k.toBase58());
            return lamports === undefined
              ? null
              : { lamports, owner: SYSTEM, data: Buffer.alloc(0), executable: false };
          }),
        }),
      } as unknown as SolDeps["chain"]["rpc"], // only getMultipleAccounts is used
      computeBudget: () => ({ maxUnitLimit: 1_000_000n, priceMicroLamports: 7n }),
      relayTip: () => ({ accounts: [], lamports: 100_000n }),
      assemble: (input) => {
        assembled.push(input);
        return {
          signature: `sig${assembled.length}`,
          wire: new Uint8Array(),
          lastValidBlockHeight: 1,
        } as unknown as ChainTransaction;
      },
      submit: async (tx) => {
        sends += 1;
        if (sends === failSend)
          throw new SubmissionError("relay_unreachable", "relay down", { signature: tx.signature }, true);
        return {
          signature: tx.signature,
          confirmed: true,
          confirmationStatus: "confirmed",
          timingMs: { sender: 0, confirmation: 0 },
        };
      },
      submitBundle: async () => {
        throw new Error("not used");
      },
    },
  };
  return { deps, wallets, executions, assembled, sends: () => sends };
}

// 890,880 (rent floor) + 100,000 tip + 5,000 signature + ceil(7 × 1,000,000 / 1e6) = 7.
const RESERVE = 995_887n;

describe("consolidateSol", () => {
  it("reserves per source, signs every transaction at the price the reserve was computed for", async () => {
    const h = harness([5_000_000_000n, 2_000_000n, 3_000_000n]);
    const destination = h.wallets[0]?.publicKey as string;
    const result = await consolidateSol(h.deps, 1, { destination_wallet: destination });
    expect(result.fee_reserve_lamports).toBe(RESERVE);
    expect(result.transactions.map((t) => [t.source_wallet, t.transfer_lamports])).toEqual([
      [h.wallets[1]?.publicKey, 2_000_000n - RESERVE],
      [h.wallets[2]?.publicKey, 3_000_000n - RESERVE],
    ]);
    expect(result.total_transfer_lamports).toBe(5_000_000n - 2n * RESERVE);
    expect(h.assembled.map((a) => [a.kind, a.computeUnitPriceMicroLamports])).toEqual([
      ["transfer", 7n],
      ["transfer", 7n],
    ]);
    expect(h.executions.map((e) => [e.kind, e.wallet, e.status])).toEqual([
      ["consolidate", h.wallets[1]?.publicKey, "pending"],
      ["consolidate", h.wallets[2]?.publicKey, "pending"],
    ]);
  });

  it("names the sources already sent when a later one fails, and sends nothing after it", async () => {
    const h = harness([1n, 2_000_000n, 3_000_000n, 4_000_000n], 2);
    const destination = h.wallets[0]?.publicKey as string;
    let error: unknown;
    try {
      await consolidateSol(h.deps, 1, { destination_wallet: destination });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      detail: "relay down",
      extra: {
        signature: "sig2",
        completed_transactions: [
          {
            source_wallet: h.wallets[1]?.publicKey,
            transfer_lamports: (2_000_000n - RESERVE).toString(),
            signature: "sig1",
            confirmed: true,
            confirmation_status: "confirmed",
          },
        ],
      },
    });
    expect(h.sends()).toBe(2);
  });
});
