/**
 * The `answerOnAcceptance` switch: a send without preflight is answered before it executes, executes right
 * after in arrival order, and a failed one is still recorded; a send with preflight still simulates first.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
} from "@solana/web3.js";
import { createLedger, type Ledger } from "../../localnet/ledger/index.js";
import { startLocalnet, type LocalnetHandle } from "../../localnet/index.js";
import { AcceptedSends } from "../../localnet/server/accepted-sends.js";
import { BundleRelay } from "../../localnet/server/bundle-relay.js";
import { Faults } from "../../localnet/server/faults.js";
import { RpcError } from "../../localnet/server/json.js";
import { Submitter } from "../../localnet/server/submitter.js";
import { postJsonRpc, SEND_UNCHECKED } from "../harness/json-rpc.js";
import { signedTransfer } from "../helpers/signed-transfer.js";

const SOL = BigInt(LAMPORTS_PER_SOL);

function transfer(ledger: Ledger, from: Keypair, to: PublicKey, lamports: bigint, extra?: PublicKey) {
  const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash();
  const tx = new Transaction({
    feePayer: from.publicKey,
    blockhash,
    lastValidBlockHeight: Number(lastValidBlockHeight),
  }).add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }));
  // A second transfer to a tip account, for the bundle relay.
  if (extra !== undefined)
    tx.add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: extra, lamports: 1_000_000 }));
  tx.sign(from);
  return tx.serialize();
}

describe("answerOnAcceptance, in the submitter", () => {
  let ledger: Ledger;
  let turns: (() => void)[];
  let submitter: Submitter;
  const faults = new Faults();
  faults.set({ answerOnAcceptance: true });
  const lamportsOf = (k: PublicKey) => ledger.getAccount(k)?.lamports ?? 0n;
  const funded = (lamports: bigint) => {
    const k = Keypair.generate();
    ledger.fund(k.publicKey, lamports);
    return k;
  };
  const nextTurn = () => {
    const run = turns.splice(0);
    for (const r of run) r();
  };

  beforeEach(() => {
    ledger = createLedger({});
    turns = [];
    // The next event-loop turn, run by the test when it chooses.
    const accepted = new AcceptedSends(
      ledger,
      (e) => {
        throw e;
      },
      (run) => turns.push(run),
    );
    submitter = new Submitter(ledger, faults, accepted);
  });

  it("answers with the signature before the transaction executes, then executes it", () => {
    const a = funded(SOL);
    const dest = Keypair.generate().publicKey;
    const sig = submitter.submit(transfer(ledger, a, dest, 1_000_000n), false);
    expect(ledger.signatureStatus(sig)).toBeNull();
    expect(lamportsOf(dest)).toBe(0n);
    expect(submitter.accepted.size).toBe(1);
    nextTurn();
    expect(ledger.signatureStatus(sig)?.err).toBeNull();
    expect(lamportsOf(dest)).toBe(1_000_000n);
  });

  it("executes accepted sends in arrival order", () => {
    // b can pay c only once a's transfer to b has executed.
    const a = funded(SOL);
    const b = funded(10_000n);
    const c = Keypair.generate().publicKey;
    const first = submitter.submit(transfer(ledger, a, b.publicKey, 500_000_000n), false);
    const second = submitter.submit(transfer(ledger, b, c, 400_000_000n), false);
    expect(turns).toHaveLength(1); // one scheduled turn for both
    nextTurn();
    expect(ledger.signatureStatus(first)?.err).toBeNull();
    expect(ledger.signatureStatus(second)?.err).toBeNull();
    expect(lamportsOf(c)).toBe(400_000_000n);
  });

  it("records a send that fails on chain: it pays its fee and its status carries the error", () => {
    const a = funded(10_000_000n);
    const before = lamportsOf(a.publicKey);
    const sig = submitter.submit(transfer(ledger, a, Keypair.generate().publicKey, SOL), false);
    nextTurn();
    const status = ledger.signatureStatus(sig);
    expect(status?.err).not.toBeNull();
    expect(lamportsOf(a.publicKey)).toBe(before - ledger.getTransaction(sig)!.fee);
  });

  it("drops a duplicate of a queued send when it runs, as a leader does", () => {
    const a = funded(SOL);
    const dest = Keypair.generate().publicKey;
    const wire = transfer(ledger, a, dest, 1_000_000n);
    const sig = submitter.submit(wire, false);
    expect(submitter.submit(wire, false)).toBe(sig);
    nextTurn();
    expect(lamportsOf(dest)).toBe(1_000_000n);
  });

  it("lets the accepted sends execute before a preflight send simulates", () => {
    const a = funded(SOL);
    const b = funded(10_000n);
    const c = Keypair.generate().publicKey;
    submitter.submit(transfer(ledger, a, b.publicKey, 500_000_000n), false);
    // Simulated on the queued transfer's effects: without them b could not pay.
    const sig = submitter.submit(transfer(ledger, b, c, 400_000_000n), true);
    expect(ledger.signatureStatus(sig)).toBeNull(); // a preflight send is answered on acceptance too
    nextTurn();
    expect(lamportsOf(c)).toBe(400_000_000n);
  });

  it("still refuses a preflight send whose simulation fails", () => {
    const a = funded(10_000_000n);
    expect(() => submitter.submit(transfer(ledger, a, Keypair.generate().publicKey, SOL), true)).toThrow(
      RpcError,
    );
    expect(submitter.accepted.size).toBe(0);
  });

  it("lands a bundle only after the sends accepted before it", () => {
    const tip = Keypair.generate().publicKey;
    ledger.fund(tip, ledger.rentExemptMinimum(0));
    const relay = new BundleRelay(ledger, faults, [tip.toBase58()], Date.now, submitter.accepted);
    const a = funded(SOL);
    const b = funded(10_000n);
    const c = Keypair.generate().publicKey;
    submitter.submit(transfer(ledger, a, b.publicKey, 500_000_000n), false);
    relay.send([transfer(ledger, b, c, 400_000_000n, tip)]);
    expect(lamportsOf(c)).toBe(400_000_000n);
  });
});

describe("answerOnAcceptance, over HTTP", () => {
  let net: LocalnetHandle;
  let conn: Connection;
  beforeAll(async () => {
    net = await startLocalnet({ port: 0, slotMs: 0 });
    conn = new Connection(net.rpcUrl, { commitment: "confirmed", disableRetryOnRateLimit: true });
  });
  afterAll(async () => {
    await net.close();
  });

  it("lands relay and skipPreflight sends after answering; failures show in getSignatureStatuses", async () => {
    net.admin.setFaults({ answerOnAcceptance: true });
    const a = Keypair.generate();
    net.admin.fund(a.publicKey.toBase58(), SOL);
    const dest = Keypair.generate().publicKey;
    const latest = await conn.getLatestBlockhash();
    const tip = { to: net.relayTipAccounts[0]!, lamports: Number(net.relayTipLamports) };
    const signed = (lamports: number, tipped: boolean) =>
      signedTransfer(a, dest, lamports, latest, tipped ? tip : undefined);
    const send = async (url: string, wire: string) =>
      (await postJsonRpc<{ result: string }>(url, "sendTransaction", [wire, SEND_UNCHECKED])).body.result;
    const ok = await send(net.relayUrl, signed(1_000_000, true));
    const failed = await send(net.rpcUrl, signed(Number(2n * SOL), false));
    await new Promise((r) => setImmediate(r));
    const [okStatus, failedStatus] = (await conn.getSignatureStatuses([ok, failed])).value;
    expect(okStatus?.err).toBeNull();
    expect(failedStatus?.err).not.toBeNull();
    expect(await conn.getBalance(dest)).toBe(1_000_000);
    net.admin.clearFaults();
  });

  it("with latency, an accepted send executes half-way, before its answer arrives; a read answers after all of it", async () => {
    const latencyMs = 400;
    // Timers may fire a little early against performance.now(); the halves are far apart at this latency.
    const slack = 5;
    const a = Keypair.generate();
    net.admin.fund(a.publicKey.toBase58(), SOL);
    const dest = Keypair.generate().publicKey;
    const latest = await conn.getLatestBlockhash();
    const tip = { to: net.relayTipAccounts[0]!, lamports: Number(net.relayTipLamports) };
    net.admin.setFaults({ answerOnAcceptance: true, latencyMs, endpoints: ["relay"] });
    const t0 = performance.now();
    let answeredAt: number | undefined;
    const sent = postJsonRpc<{ result: string }>(net.relayUrl, "sendTransaction", [
      signedTransfer(a, dest, 1_000_000, latest, tip),
      SEND_UNCHECKED,
    ]).then((r) => {
      answeredAt = performance.now();
      return r.body.result;
    });
    // The RPC has no latency: poll it until the transfer shows.
    let executedAt: number | undefined;
    while (executedAt === undefined && answeredAt === undefined) {
      if ((await conn.getBalance(dest)) === 1_000_000) executedAt = performance.now();
      else await new Promise((r) => setTimeout(r, 5));
    }
    const signature = await sent;
    expect(executedAt).toBeDefined();
    expect(executedAt! - t0).toBeGreaterThanOrEqual(latencyMs / 2 - slack);
    expect(answeredAt! - t0).toBeGreaterThanOrEqual(latencyMs - slack);
    expect((await conn.getSignatureStatuses([signature])).value[0]?.err).toBeNull();

    net.admin.setFaults({ latencyMs, endpoints: ["rpc"] });
    const r0 = performance.now();
    expect(await conn.getBalance(dest)).toBe(1_000_000);
    expect(performance.now() - r0).toBeGreaterThanOrEqual(latencyMs - slack);
    net.admin.clearFaults();
  });
});
