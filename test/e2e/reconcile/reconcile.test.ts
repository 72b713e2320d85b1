/**
 * Reconciliation against the localnet: executions left open (confirm off, sends that never landed, a record
 * whose outcome was never written) reach their final status from the chain's own record, and
 * GET /v1/executions shows it.
 */
import { Keypair, SystemProgram, Transaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { reconcileOnce } from "../../../src/domain/reconcile/reconcile.js";
import { newExecution } from "../../helpers/fixtures.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

interface Row {
  id: string;
  status: string;
  confirmation_status: string | null;
  signatures: string[];
  error: {
    status?: number;
    detail?: string;
    signature?: string;
    program_error?: { program: string; code: number };
  } | null;
}

async function history(apiKey: string): Promise<Row[]> {
  return (await e2e.get(apiKey, "/v1/executions?limit=100")).json<{ executions: Row[] }>().executions;
}

// The passes' clock runs ahead by `skew`: a lease lapses when the test moves it, not after a real wait that a
// loaded machine can overrun (the first pass alone may take longer than a short lease).
let skew = 0;
// The fills' reads of every pass: a never-landed send must not ask for its transaction.
const fillReads: string[] = [];
const pass = (owner = "test-process") =>
  reconcileOnce({
    store: e2e.store,
    rpc: e2e.chain.rpc,
    fills: {
      rpc: new Proxy(e2e.chain.rpc, {
        get(target, name, receiver) {
          const v: unknown = Reflect.get(target, name, receiver);
          if (name !== "getTransactionJson" || typeof v !== "function") return v;
          return (signature: string) => {
            fillReads.push(signature);
            return (v as (s: string) => unknown).call(target, signature);
          };
        },
      }),
      relayTip: () => e2e.chain.relayTip(),
    },
    owner,
    clock: () => new Date(Date.now() + skew),
    graceMs: 0,
    leaseMs: 60_000,
  });

describe("reconciliation", () => {
  it("settles confirm-off trades, never-landed sends and an on-chain failure; leaves the rest open", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const buy = { action: "buy", mint, amount: "0.01", simulate: false, confirm: false };

    const landed = await e2e.post(apiKey, "/v1/trades/execute", buy);
    expect(landed.statusCode).toBe(200);
    e2e.localnet.admin.setFaults({ neverLand: true });
    const lost = await e2e.post(apiKey, "/v1/trades/execute", buy);
    expect(lost.statusCode).toBe(200);
    e2e.localnet.admin.clearFaults();

    // A transfer that fails on chain (more lamports than the payer has), recorded as a process would have
    // before it died: pending, outcome never written.
    const payer = Keypair.generate();
    e2e.localnet.admin.fund(payer.publicKey.toBase58(), 10_000_000n);
    const { blockhash, lastValidBlockHeight } = await e2e.connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1e12,
      }),
    );
    tx.sign(payer);
    const failedSig = await e2e.connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    const apiKeyId = (await e2e.store.findApiKeyByHash(e2e.vault.hashApiKey(apiKey)))!.id;
    await e2e.store.insertExecution(
      newExecution(apiKeyId, wallet, { kind: "transfer", signatures: [failedSig], lastValidBlockHeight }),
    );
    // Let the landed ones reach confirmed.
    e2e.localnet.admin.advanceSlots(2);

    const first = await pass();
    expect(first.examined).toBe(3);
    // The landed trade's fill was read (the same pass must not skip reads for what landed).
    expect(fillReads).toContain(landed.json<{ signature: string }>().signature);
    let rows = await history(apiKey);
    const byStatus = (s: string) => rows.filter((r) => r.status === s);
    expect(byStatus("failed")).toHaveLength(1);
    expect(byStatus("failed")[0]!.error?.detail).toMatch(/^transaction failed on chain: /);
    expect(byStatus("failed")[0]!.error?.program_error).toMatchObject({ code: 1 });
    // The same body the request that waited on it would have stored.
    expect(byStatus("failed")[0]!.error).toMatchObject({ status: 502, signature: failedSig });
    expect([...byStatus("confirmed"), ...byStatus("finalized")]).toHaveLength(1);
    // The lost send is still within its blockhash's life: it stays open.
    expect(byStatus("submitted")).toHaveLength(1);

    // Past the blockhash's last valid height it can never land.
    e2e.localnet.admin.advanceSlots(200);
    // Another process may take the record once the first one's lease has lapsed.
    expect((await pass("another-process")).examined).toBe(0);
    skew += 61_000;
    const readsBefore = fillReads.length;
    const second = await pass("another-process");
    expect(second.settled).toEqual({ expired: 1 });
    // Expired: it never landed, so there is no transaction to read a fill from.
    expect(fillReads.slice(readsBefore)).toEqual([]);
    rows = await history(apiKey);
    expect(rows.map((r) => r.status).sort()).toEqual(
      [
        ...byStatus("confirmed").map(() => "confirmed"),
        ...byStatus("finalized").map(() => "finalized"),
        "expired",
        "failed",
      ].sort(),
    );
    expect((await pass()).examined).toBe(0);
  });
});
