/**
 * Outside wallets across two real service processes on one database — PostgreSQL when TEST_DATABASE_URL is
 * set, else SQLite (the build store's own tests cover both engines; two clusters would double this file's
 * minute in CI): a transaction built by one process is sent through the other and lands once; sending it
 * again through either process is refused (the build is taken once, in the database); the same for a bundle's
 * legs.
 */
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startCluster, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL } from "../helpers/pg.js";

const engines = [TEST_DATABASE_URL !== undefined ? ("postgres" as const) : ("sqlite" as const)];

describe.each(engines)("outside build on one process, send on another, on %s", (database) => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ processes: 2, database });
  }, 240_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it("the send reaches the other process and lands; a second send through either is refused", async () => {
    const url = (i: number) => cluster.services[i]!.baseUrl;
    const { apiKey } = await cluster.setupKey({ sol: 0n });
    const { mint } = await cluster.localnet.createToken();
    const signer = Keypair.generate();
    await cluster.localnet.fund(signer.publicKey.toBase58(), 2_000_000_000n);
    const built = await apiRequest<{ transaction: string; expected_output: string }>(
      url(0),
      "POST",
      "/v1/trades/build",
      { apiKey, body: { public_key: signer.publicKey.toBase58(), action: "buy", mint, amount: "0.1" } },
    );
    expect(built.status, built.text).toBe(200);
    const tx = VersionedTransaction.deserialize(Buffer.from(built.body.transaction, "base64"));
    tx.sign([signer]);
    const body = { transaction: Buffer.from(tx.serialize()).toString("base64") };
    const sent = await apiRequest<{ execution_id: string; confirmed: boolean; mint: string }>(
      url(1),
      "POST",
      "/v1/transactions/send",
      { apiKey, body },
    );
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ confirmed: true, mint });
    for (const via of [0, 1]) {
      const again = await apiRequest<{ detail: string }>(url(via), "POST", "/v1/transactions/send", {
        apiKey,
        body,
      });
      expect(again.status).toBe(400);
      expect(again.body.detail).toMatch(/was not built for this key/);
    }
    // The record is the key's on both processes.
    const rec = await apiRequest<{ kind: string; status: string }>(
      url(0),
      "GET",
      `/v1/executions/${sent.body.execution_id}`,
      { apiKey },
    );
    expect(rec.body).toMatchObject({ kind: "trade", status: "confirmed" });
  }, 120_000);

  it("a bundle's legs built on one process are sent as one bundle through the other, once", async () => {
    const url = (i: number) => cluster.services[i]!.baseUrl;
    const { apiKey } = await cluster.setupKey({ sol: 0n });
    const { mint } = await cluster.localnet.createToken();
    const signer = Keypair.generate();
    const owner = signer.publicKey.toBase58();
    await cluster.localnet.fund(owner, 2_000_000_000n);
    const built = await apiRequest<{ legs: { transaction: string }[] }>(
      url(0),
      "POST",
      "/v1/laser/bundle/build",
      {
        apiKey,
        body: { mint, public_key: owner, accounts: [{ type: "buy", amount: "0.1" }], bundleTip: "0.00001" },
      },
    );
    expect(built.status, built.text).toBe(200);
    const transactions = built.body.legs.map((l) => {
      const tx = VersionedTransaction.deserialize(Buffer.from(l.transaction, "base64"));
      tx.sign([signer]);
      return Buffer.from(tx.serialize()).toString("base64");
    });
    const sent = await apiRequest<{ execution_id: string; kind: string; confirmed: boolean }>(
      url(1),
      "POST",
      "/v1/transactions/send",
      { apiKey, body: { transactions } },
    );
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ kind: "bundle", confirmed: true });
    const again = await apiRequest(url(0), "POST", "/v1/transactions/send", {
      apiKey,
      body: { transactions },
    });
    expect(again.status).toBe(400);
    const rec = await apiRequest<{ kind: string; status: string }>(
      url(0),
      "GET",
      `/v1/executions/${sent.body.execution_id}`,
      { apiKey },
    );
    expect(rec.body).toMatchObject({ kind: "bundle", status: "confirmed" });
  }, 120_000);
});
