/**
 * Outside wallets across two real service processes on one database — PostgreSQL when TEST_DATABASE_URL is
 * set, else SQLite (the build store's own tests cover both engines; two clusters would double this file's
 * minute in CI): a transaction built by one process is sent through the other and lands once; sending it
 * again through either process is refused (the build is taken once, in the database). The same for a raced
 * build's variants under the outside wallet's durable nonce, and for a bundle's legs.
 */
import { Keypair } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signBuilt } from "../helpers/sign-built.js";
import { apiRequest, startCluster, type Cluster } from "../harness/index.js";
import { TEST_DATABASE_URL } from "../helpers/pg.js";

const engines = [TEST_DATABASE_URL !== undefined ? ("postgres" as const) : ("sqlite" as const)];

describe.each(engines)("outside build on one process, send on another, on %s", (database) => {
  let cluster: Cluster;
  beforeAll(async () => {
    // ROUTES=rpc (plain RPC, no tip): raced builds get one variant, enough to cross processes with it.
    cluster = await startCluster({ processes: 2, database, serviceEnv: { ROUTES: "rpc" } });
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
    const body = { transaction: signBuilt(built.body.transaction, signer) };
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

  it("a raced build's variants built on one process race through the other; the nonce advances once", async () => {
    const url = (i: number) => cluster.services[i]!.baseUrl;
    const { apiKey } = await cluster.setupKey({ sol: 0n });
    const { mint } = await cluster.localnet.createToken();
    const signer = Keypair.generate();
    const owner = signer.publicKey.toBase58();
    await cluster.localnet.fund(owner, 2_000_000_000n);
    const sign = (b64: string): string => signBuilt(b64, signer);
    const nonce = await apiRequest<{ transaction: string; nonce_account: string }>(
      url(1),
      "POST",
      "/v1/nonce-accounts/build",
      { apiKey, body: { public_key: owner } },
    );
    expect(nonce.status, nonce.text).toBe(200);
    const sig = await cluster.localnet.rpc<string>("sendTransaction", [
      sign(nonce.body.transaction),
      { encoding: "base64" },
    ]);
    for (let i = 0; i < 200; i++) {
      const st = await cluster.localnet.rpc<{ value: (object | null)[] }>("getSignatureStatuses", [[sig]]);
      if (st.value[0] !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await cluster.localnet.advanceSlots(2);
    const built = await apiRequest<{
      variants: { route: string; transaction: string }[];
      nonce: { value: string };
    }>(url(0), "POST", "/v1/trades/build", {
      apiKey,
      body: { public_key: owner, action: "buy", mint, amount: "0.1", routes: "all" },
    });
    expect(built.status, built.text).toBe(200);
    expect(built.body.variants.map((v) => v.route)).toEqual(["rpc"]);
    const body = { transactions: built.body.variants.map((v) => sign(v.transaction)) };
    const sent = await apiRequest<{ confirmed: boolean; landed_via: string; nonce_account: string }>(
      url(1),
      "POST",
      "/v1/transactions/send",
      { apiKey, body },
    );
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({
      confirmed: true,
      landed_via: "rpc",
      nonce_account: nonce.body.nonce_account,
    });
    const again = await apiRequest<{ code: string }>(url(0), "POST", "/v1/transactions/send", {
      apiKey,
      body,
    });
    expect(again.status).toBe(400);
    // The nonce moved on: the next raced build (on either process) uses its new value.
    const next = await apiRequest<{ nonce: { value: string } }>(url(1), "POST", "/v1/trades/build", {
      apiKey,
      body: { public_key: owner, action: "buy", mint, amount: "0.1", routes: "all" },
    });
    expect(next.status, next.text).toBe(200);
    expect(next.body.nonce.value).not.toBe(built.body.nonce.value);
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
    const transactions = built.body.legs.map((l) => signBuilt(l.transaction, signer));
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
