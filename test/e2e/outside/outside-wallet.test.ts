/**
 * Outside wallets on the sandbox: a keypair the service does not hold builds a buy (POST /v1/trades/build), signs
 * it locally and sends it (POST /v1/transactions/send); the chain moves, the execution is recorded with its
 * fill; a tampered, wrongly signed or replayed transaction is refused with a 400.
 */
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

interface Built {
  transaction: string;
  public_key: string;
  expected_output: string;
  max_sol_in_lamports: string;
  venue: string;
}

async function build(apiKey: string, signer: Keypair, mint: string): Promise<Built> {
  const res = await e2e.post(apiKey, "/v1/trades/build", {
    public_key: signer.publicKey.toBase58(),
    action: "buy",
    mint,
    amount: "0.1",
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Built>();
}

function signed(built: Built, signer: Keypair): Uint8Array {
  const tx = VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
  tx.sign([signer]);
  return tx.serialize();
}

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

describe("outside wallets", () => {
  it("builds unsigned, sends signed: balances move and the execution is recorded", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const signer = Keypair.generate();
    const owner = signer.publicKey.toBase58();
    e2e.localnet.admin.fund(owner, 2_000_000_000n);
    const built = await build(apiKey, signer, mint);
    expect(built).toMatchObject({
      public_key: owner,
      venue: "bonding_curve",
      max_sol_in_lamports: "100000000",
    });
    // Unsigned: the fee payer's signature slot is zero.
    const raw = VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
    expect(raw.signatures[0]!.every((b) => b === 0)).toBe(true);
    expect(raw.message.staticAccountKeys[0]!.toBase58()).toBe(owner);

    const sol0 = await e2e.balance(owner);
    const res = await e2e.post(apiKey, "/v1/transactions/send", { transaction: b64(signed(built, signer)) });
    expect(res.statusCode, res.body).toBe(200);
    const sent = res.json<{ execution_id: string; signature: string; confirmed: boolean; wallet: string }>();
    expect(sent).toMatchObject({ confirmed: true, wallet: owner, mint });
    expect(await e2e.tokenBalance(owner, mint)).toBeGreaterThanOrEqual(BigInt(built.expected_output));
    expect(sol0 - (await e2e.balance(owner))).toBeGreaterThanOrEqual(100_000_000n);

    const rec = await e2e.get(apiKey, `/v1/executions/${sent.execution_id}`);
    expect(rec.statusCode, rec.body).toBe(200);
    const record = rec.json<{ kind: string; status: string; signatures: string[]; fill?: unknown }>();
    expect(record).toMatchObject({ kind: "trade", status: "confirmed", signatures: [sent.signature] });
    // The fill once confirmed: what the outside wallet received, on the answer and the record.
    expect(res.json<{ fill?: unknown }>().fill).toBeTruthy();
    expect(JSON.stringify(record)).toContain('"fill"');

    // Its events, as for a managed trade.
    // A page (Accept: application/json), not the stream.
    const events = await e2e.app.inject({
      method: "GET",
      url: "/v1/events?after=0",
      headers: { "x-api-key": apiKey, accept: "application/json" },
    });
    expect(events.statusCode, events.body).toBe(200);
    expect(events.body).toContain(sent.execution_id);
    expect(events.body).toContain("execution.confirmed");

    // A sell of everything the outside wallet holds: built from its token account, sent the same way.
    const held = await e2e.tokenBalance(owner, mint);
    const sellRes = await e2e.post(apiKey, "/v1/trades/build", {
      public_key: owner,
      action: "sell",
      mint,
      amount: "100%",
    });
    expect(sellRes.statusCode, sellRes.body).toBe(200);
    const sellBuilt = sellRes.json<Built & { tokens_in: string }>();
    expect(sellBuilt.tokens_in).toBe(held.toString());
    const sold = await e2e.post(apiKey, "/v1/transactions/send", {
      transaction: b64(signed(sellBuilt, signer)),
    });
    expect(sold.statusCode, sold.body).toBe(200);
    expect(await e2e.tokenBalance(owner, mint)).toBe(0n);

    // The same transaction again: its build was taken by the first send.
    const again = await e2e.post(apiKey, "/v1/transactions/send", {
      transaction: b64(signed(built, signer)),
    });
    expect(again.statusCode).toBe(400);
  });

  it("refuses a tampered, a wrongly signed, another key's or a malformed transaction with 400", async () => {
    const { apiKey } = await e2e.setup();
    const other = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const signer = Keypair.generate();
    e2e.localnet.admin.fund(signer.publicKey.toBase58(), 2_000_000_000n);
    const built = await build(apiKey, signer, mint);
    const good = signed(built, signer);

    // A message byte changed after signing: the signature no longer verifies.
    const tampered = Uint8Array.from(good);
    tampered[tampered.length - 1]! ^= 1;
    let res = await e2e.post(apiKey, "/v1/transactions/send", { transaction: b64(tampered) });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe(
      "transaction signature does not verify for its fee payer",
    );

    // Signed by someone else over the built message (the signature bytes of another keypair).
    const intruder = Keypair.generate();
    const forged = VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
    const bad = Uint8Array.from(forged.serialize());
    const theirs = VersionedTransaction.deserialize(Buffer.from(built.transaction, "base64"));
    theirs.message.staticAccountKeys[0] = intruder.publicKey;
    theirs.sign([intruder]);
    bad.set(theirs.signatures[0]!, 1);
    res = await e2e.post(apiKey, "/v1/transactions/send", { transaction: b64(bad) });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe(
      "transaction signature does not verify for its fee payer",
    );

    // A message validly signed but never built (the intruder as fee payer), and the build sent by another key.
    res = await e2e.post(apiKey, "/v1/transactions/send", { transaction: b64(theirs.serialize()) });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toMatch(/^transaction was not built for this key/);
    res = await e2e.post(other.apiKey, "/v1/transactions/send", { transaction: b64(good) });
    expect(res.statusCode).toBe(400);

    res = await e2e.post(apiKey, "/v1/transactions/send", { transaction: "not base64!" });
    expect(res.statusCode).toBe(400);
    // An unfunded outside wallet: refused at build time, naming it, as a managed trade would be.
    const poor = Keypair.generate().publicKey.toBase58();
    res = await e2e.post(apiKey, "/v1/trades/build", {
      public_key: poor,
      action: "buy",
      mint,
      amount: "0.1",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toContain(poor);
    res = await e2e.post(apiKey, "/v1/trades/build", { action: "buy", mint, amount: "0.1" });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toBe(
      "public_key is required: the outside wallet that will sign",
    );

    // Nothing moved for the outside wallet, and the right key can still send its build.
    expect(await e2e.tokenBalance(signer.publicKey.toBase58(), mint)).toBe(0n);
    res = await e2e.post(apiKey, "/v1/transactions/send", { transaction: b64(good) });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("the key's scope and spend policy apply to what it builds and sends", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const signer = Keypair.generate();
    const owner = signer.publicKey.toBase58();
    e2e.localnet.admin.fund(owner, 2_000_000_000n);
    const subKey = async (scopes: string[]): Promise<{ id: number; api_key: string }> => {
      const res = await e2e.post(apiKey, "/v1/keys", { name: `outside-${scopes.join("-")}`, scopes });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: number; api_key: string }>();
    };
    // A build-only key builds, and cannot send.
    const builder = await subKey(["build"]);
    const built = await build(builder.api_key, signer, mint);
    const res = await e2e.post(builder.api_key, "/v1/transactions/send", {
      transaction: b64(signed(built, signer)),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ rule: string }>().rule).toBe("scope");

    // A capped key: a build above its per-execution cap is refused before anything is built.
    const capped = await subKey(["trade"]);
    const policy = await e2e.app.inject({
      method: "PUT",
      url: `/v1/keys/${capped.id}/policy`,
      headers: { "x-api-key": apiKey },
      payload: { max_sol_per_execution: "0.05", mints_deny: [] },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    const over = await e2e.post(capped.api_key, "/v1/trades/build", {
      public_key: owner,
      action: "buy",
      mint,
      amount: "0.1",
    });
    expect(over.statusCode).toBe(403);
    expect(over.json<{ rule: string }>().rule).toBe("max_sol_per_execution");
    const under = await e2e.post(capped.api_key, "/v1/trades/build", {
      public_key: owner,
      action: "buy",
      mint,
      amount: "0.01",
    });
    expect(under.statusCode, under.body).toBe(200);
    const sent = await e2e.post(capped.api_key, "/v1/transactions/send", {
      transaction: b64(signed(under.json<Built>(), signer)),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await e2e.tokenBalance(owner, mint)).toBeGreaterThan(0n);
  });
});
