/**
 * The outside-wallet racing scenario (issue 32), shared by the SQLite and PostgreSQL e2e files: a keypair held
 * only by the test creates its nonce account from the service's unsigned build, builds a raced buy (one variant
 * per route, each tipping its route, all advancing the nonce), signs every variant and sends them together;
 * exactly one lands, the nonce advanced once, one tip was paid, the tokens arrived, the record names the route.
 */
import {
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  VersionedTransaction,
  type TransactionInstruction,
} from "@solana/web3.js";
import { expect } from "vitest";
import { signBuilt } from "../../helpers/sign-built.js";
import { decodeNonce, nonceAddress } from "../../../src/chain/landing/nonce.js";
import type { E2e } from "../../helpers/e2e.js";

export interface NonceBuild {
  nonce_account: string;
  exists: boolean;
  transaction: string | null;
  rent_lamports: string;
  nonce_value: string | null;
  authority: string;
}

export interface RacedBuild {
  transaction?: string;
  expected_output: string;
  variants: { route: string; transaction: string; tip_lamports: string; tip_account: string | null }[];
  nonce: { address: string; value: string; authority: string };
}

export interface RacedSend {
  execution_id: string;
  signature: string;
  confirmed: boolean;
  wallet: string;
  landed_via: string | null;
  slots_to_land: number | null;
  nonce_account: string;
  routes: { route: string; signature: string; accepted: boolean; sent_at: string; answered_ms: number }[];
  fill?: unknown;
}

/** The scenario's helpers on `e2e` (filled in by its beforeAll: use them inside tests). */
export function outsideRaceKit(e2e: E2e) {
  async function landedCount(signatures: string[]): Promise<number> {
    const { value } = await e2e.connection.getSignatureStatuses(signatures);
    return value.filter((s) => s !== null).length;
  }

  async function waitLanded(signature: string): Promise<void> {
    for (let i = 0; i < 200 && (await landedCount([signature])) === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(await landedCount([signature])).toBe(1);
  }

  /** Sends a legacy transaction signed by `owner` straight to the localnet (outside the service). */
  async function sendOutside(owner: Keypair, ix: TransactionInstruction): Promise<void> {
    const tx = new Transaction().add(ix);
    tx.recentBlockhash = (await e2e.connection.getLatestBlockhash()).blockhash;
    tx.feePayer = owner.publicKey;
    tx.sign(owner);
    await waitLanded(await e2e.connection.sendRawTransaction(tx.serialize()));
  }

  async function tipsReceived(): Promise<bigint> {
    let sum = 0n;
    for (const r of e2e.localnet.routes) for (const a of r.tipAccounts) sum += await e2e.balance(a);
    return sum;
  }

  async function readNonce(address: string) {
    const key = new PublicKey(address);
    return decodeNonce(key, (await e2e.chain.rpc.getAccountInfo(key)).value);
  }

  /** A funded outside wallet whose nonce account was created from the service's build, signed here. */
  async function outsideWithNonce(apiKey: string): Promise<{ signer: Keypair; nonce: NonceBuild }> {
    const signer = Keypair.generate();
    e2e.localnet.admin.fund(signer.publicKey.toBase58(), 3_000_000_000n);
    const res = await e2e.post(apiKey, "/v1/nonce-accounts/build", {
      public_key: signer.publicKey.toBase58(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const built = res.json<NonceBuild>();
    expect(built).toMatchObject({ exists: false, rent_lamports: "1447680", nonce_value: null });
    expect(built.nonce_account).toBe((await nonceAddress(signer.publicKey)).toBase58());
    const tx = VersionedTransaction.deserialize(Buffer.from(built.transaction!, "base64"));
    tx.sign([signer]);
    await waitLanded(await e2e.connection.sendRawTransaction(tx.serialize()));
    // A nonce cannot be advanced in the slot it was initialized in.
    e2e.localnet.admin.advanceSlots(2);
    const again = await e2e.post(apiKey, "/v1/nonce-accounts/build", {
      public_key: signer.publicKey.toBase58(),
    });
    expect(again.statusCode, again.body).toBe(200);
    const nonce = again.json<NonceBuild>();
    expect(nonce).toMatchObject({
      exists: true,
      transaction: null,
      nonce_account: built.nonce_account,
      authority: signer.publicKey.toBase58(),
    });
    expect(nonce.nonce_value).toEqual(expect.any(String));
    return { signer, nonce };
  }

  async function racedBuild(apiKey: string, signer: Keypair, mint: string, extra: object = {}) {
    return e2e.post(apiKey, "/v1/trades/build", {
      public_key: signer.publicKey.toBase58(),
      action: "buy",
      mint,
      amount: "0.1",
      routes: "all",
      ...extra,
    });
  }

  return {
    signed: signBuilt,
    landedCount,
    sendOutside,
    tipsReceived,
    readNonce,
    outsideWithNonce,
    racedBuild,
  };
}

/** Creates the nonce, builds a variant per route, races the signed variants: exactly one lands. */
export async function racedOutsideScenario(e2e: E2e): Promise<void> {
  const { landedCount, tipsReceived, readNonce, outsideWithNonce, racedBuild } = outsideRaceKit(e2e);
  const { apiKey } = await e2e.setup();
  const { mint } = e2e.localnet.admin.createToken();
  const { signer, nonce } = await outsideWithNonce(apiKey);
  const owner = signer.publicKey.toBase58();

  const res = await racedBuild(apiKey, signer, mint);
  expect(res.statusCode, res.body).toBe(200);
  const built = res.json<RacedBuild>();
  expect(built.transaction).toBeUndefined();
  expect(built.nonce).toEqual({ address: nonce.nonce_account, value: nonce.nonce_value, authority: owner });
  expect(built.variants.map((v) => v.route)).toEqual(["route-a", "route-b", "route-c", "route-d"]);
  built.variants.forEach((v, i) => {
    const tx = VersionedTransaction.deserialize(Buffer.from(v.transaction, "base64"));
    // Unsigned, on the nonce's value, advancing it first, tipping its own route.
    expect(tx.signatures[0]!.every((b) => b === 0)).toBe(true);
    expect(tx.message.recentBlockhash).toBe(nonce.nonce_value);
    const keys = tx.message.staticAccountKeys;
    const first = tx.message.compiledInstructions[0]!;
    expect(keys[first.programIdIndex]!.equals(SystemProgram.programId)).toBe(true);
    expect(Buffer.from(first.data).readUInt32LE(0)).toBe(4); // AdvanceNonceAccount
    expect(keys[first.accountKeyIndexes[0]!]!.toBase58()).toBe(nonce.nonce_account);
    expect(e2e.localnet.routes[i]!.tipAccounts).toContain(v.tip_account);
  });

  // A dry run describes the first variant (nothing sent, the builds stay sendable).
  const dry = await e2e.post(apiKey, "/v1/transactions/send", {
    transactions: built.variants.map((v) => signBuilt(v.transaction, signer)),
    dry_run: true,
  });
  expect(dry.statusCode, dry.body).toBe(200);
  expect(dry.json<{ dry_run: boolean; transactions: unknown[] }>()).toMatchObject({ dry_run: true });
  expect(dry.json<{ transactions: unknown[] }>().transactions).toHaveLength(1);

  const tipsBefore = await tipsReceived();
  const sent = await e2e.post(apiKey, "/v1/transactions/send", {
    transactions: built.variants.map((v) => signBuilt(v.transaction, signer)),
    simulate: false,
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const a = sent.json<RacedSend>();
  expect(a).toMatchObject({ confirmed: true, wallet: owner, nonce_account: nonce.nonce_account });
  expect(a.routes.map((v) => v.route)).toEqual(["route-a", "route-b", "route-c", "route-d"]);
  expect(a.routes.every((v) => v.accepted && v.sent_at !== "")).toBe(true);
  expect(a.routes.map((v) => v.route)).toContain(a.landed_via);
  expect(a.routes.find((v) => v.route === a.landed_via)!.signature).toBe(a.signature);
  expect(a.slots_to_land).toBeGreaterThanOrEqual(0);
  expect(a.fill).toBeTruthy();

  // The other variants can no longer land: their nonce value is spent; the nonce moved on once.
  e2e.localnet.admin.advanceSlots(5);
  expect(await landedCount(a.routes.map((v) => v.signature))).toBe(1);
  const after = await readNonce(nonce.nonce_account);
  expect(after!.value).not.toBe(nonce.nonce_value);
  expect((await tipsReceived()) - tipsBefore).toBe(BigInt(built.variants[0]!.tip_lamports));
  // Exactly one fill's tokens: a second variant landing would have doubled them.
  const held = await e2e.tokenBalance(owner, mint);
  expect(held).toBeGreaterThanOrEqual(BigInt(built.expected_output));
  expect(held.toString()).toBe((a.fill as { token_change: string }).token_change);

  // The record: a trade with every variant's signature and the race.
  const rec = await e2e.get(apiKey, `/v1/executions/${a.execution_id}`);
  expect(rec.statusCode, rec.body).toBe(200);
  const record = rec.json<{ kind: string; status: string; signatures: string[]; response: RacedSend }>();
  expect(record).toMatchObject({ kind: "trade", status: "confirmed" });
  expect(record.signatures).toEqual(a.routes.map((v) => v.signature));
  expect(record.response).toMatchObject({ landed_via: a.landed_via, slots_to_land: a.slots_to_land });

  // The same variants again: their builds were taken by the first send.
  const again = await e2e.post(apiKey, "/v1/transactions/send", {
    transactions: built.variants.map((v) => signBuilt(v.transaction, signer)),
  });
  expect(again.statusCode).toBe(400);
  expect(again.json<{ code: string }>().code).toBe("outside.not_built");

  // A second raced build uses the advanced value and lands once more, over the routes asked for.
  const second = await racedBuild(apiKey, signer, mint, { routes: ["route-b", "route-c"] });
  expect(second.statusCode, second.body).toBe(200);
  const b = second.json<RacedBuild>();
  expect(b.nonce.value).toBe(after!.value);
  const sentB = await e2e.post(apiKey, "/v1/transactions/send", {
    transactions: b.variants.map((v) => signBuilt(v.transaction, signer)),
  });
  expect(sentB.statusCode, sentB.body).toBe(200);
  expect(sentB.json<RacedSend>().routes.map((v) => v.route)).toEqual(["route-b", "route-c"]);
}
