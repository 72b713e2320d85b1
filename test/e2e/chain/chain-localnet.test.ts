import { afterAll, beforeAll, beforeEach, describe, it, expect } from "vitest";
import { Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram } from "@solana/web3.js";
import { startLocalnet, type LocalnetHandle } from "../../../localnet/index.js";
import { createChain, type Chain } from "../../../src/chain/chain.js";
import { localnetChainOptions } from "../../../src/chain/localnet-options.js";
import { createRpcClient, TimeoutError } from "../../../src/chain/rpc-client.js";
import { SubmissionError, submitBundle } from "../../../src/chain/submit.js";
import { confirmSignature } from "../../../src/chain/confirm.js";
import { systemClock } from "../../../src/chain/clock.js";
import { SPEC } from "../../../src/core/errors.js";
import { answerOf } from "../../../src/domain/execution/failure.js";
import { LAUNCH_GLOBAL } from "../../../src/launch/programs.js";
import { decodeLaunchGlobal } from "../../../src/launch/state.js";
import { interpretTradeRead, tradeReadPlan } from "../../../src/launch/trade-accounts.js";
import { buildCurveBuyExactSolIn } from "../../../src/launch/trade-instructions.js";

let net: LocalnetHandle;
let chain: Chain;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, slotMs: 50 });
  chain = createChain(
    localnetChainOptions(net, {
      // Read from the bundle relay's getTipAccounts at start instead.
      bundleTipAccounts: undefined,
      computeUnitLimits: { trade: 200_000, create: 400_000, transfer: 20_000, claim: 100_000 },
      confirmTimeoutMs: 3000,
      confirmPollMs: 50,
      rebroadcastMs: 300,
      bundleConfirmTimeoutMs: 5000,
      bundlePollMs: 100,
      // Long refresh: background refreshes must not blur the per-request round-trip counts below.
      cacheRefreshMs: 600_000,
    }),
  );
  await chain.start();
});
afterAll(async () => {
  chain?.stop();
  await net?.close();
});
beforeEach(() => {
  net.admin.clearFaults();
  net.admin.resetStats();
});

function funded(sol = 10n): Keypair {
  const k = Keypair.generate();
  net.admin.fund(k.publicKey.toBase58(), sol * BigInt(LAMPORTS_PER_SOL));
  return k;
}

function transferTx(from: Keypair, to: PublicKey, lamports: bigint) {
  return chain.assemble({
    kind: "transfer",
    payer: from,
    instructions: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports })],
  });
}

/** What one request's chain calls cost, by "<endpoint>.<method>", ignoring zero entries. */
function stats(): Record<string, number> {
  return Object.fromEntries(Object.entries(net.admin.stats()).filter(([, n]) => n > 0));
}

async function curveBuy(user: Keypair, mint: PublicKey, minTokensOut: bigint) {
  const plan = tradeReadPlan({ mint, user: user.publicKey });
  const read = await chain.rpc.getMultipleAccounts(plan.addresses);
  const trade = interpretTradeRead(plan, read.value);
  if (trade.venue !== "bonding_curve") throw new Error("expected a curve trade");
  const globalAccount = chain.caches.account(LAUNCH_GLOBAL);
  if (!globalAccount) throw new Error("launch Global missing");
  const instructions = await buildCurveBuyExactSolIn({
    global: decodeLaunchGlobal(globalAccount.data),
    curve: trade.curve,
    mint,
    user: user.publicKey,
    tokenProgram: trade.tokenProgram,
    spendableLamports: 10_000_000n,
    minTokensOut,
    createAta: !trade.userAtaExists,
  });
  return chain.assemble({ kind: "trade", payer: user, instructions });
}

describe("chain against the localnet", () => {
  it("serves blockhash, hot accounts and fee from the caches without a round trip", async () => {
    expect(chain.caches.blockhash().blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(chain.caches.account(LAUNCH_GLOBAL)).not.toBeNull();
    expect(chain.caches.priorityFeeMicroLamports()).toBe(10_000n);
    const tips = await chain.bundleTipAccounts();
    expect(tips.map((k) => k.toBase58()).sort()).toEqual([...net.bundleTipAccounts].sort());
    expect(stats()).toEqual({});
  });

  it("costs one read and one send for a trade with simulate and confirm off, once caches are warm", async () => {
    const { mint } = net.admin.createToken();
    const user = funded();
    net.admin.resetStats();
    const tx = await curveBuy(user, new PublicKey(mint), 1n);
    const result = await chain.submit(tx, {
      simulate: false,
      confirm: false,
      simulationFailedDetail: SPEC.trade.simulationFailed,
    });
    expect(result).toMatchObject({ signature: tx.signature, confirmed: false, confirmationStatus: null });
    expect(stats()).toEqual({ "rpc.getMultipleAccounts": 1, "relay.sendTransaction": 1 });
    // Outside the counted request: the buy did land.
    const landed = await confirmSignature({
      rpc: chain.rpc,
      relay: chain.relay,
      signature: tx.signature,
      wire: tx.wire,
      lastValidBlockHeight: tx.lastValidBlockHeight,
      timeoutMs: 5000,
      pollMs: 50,
      rebroadcastMs: 1000,
      clock: systemClock,
    });
    expect(landed.confirmed).toBe(true);
  });

  it("simulates, sends and confirms a landed transaction", async () => {
    const from = funded();
    const to = Keypair.generate().publicKey;
    const tx = transferTx(from, to, 5_000_000n);
    const r = await chain.submit(tx, { simulate: true, confirm: true, simulationFailedDetail: "x" });
    expect(r.confirmed).toBe(true);
    expect(["confirmed", "finalized"]).toContain(r.confirmationStatus);
    expect((await chain.rpc.getBalance(to)).value).toBe(5_000_000n);
    const tipped = await Promise.all(net.relayTipAccounts.map((a) => chain.rpc.getBalance(new PublicKey(a))));
    expect(tipped.some((b) => b.value >= net.relayTipLamports)).toBe(true);
  });

  it("two identical requests in the same slot become two transactions that both land", async () => {
    const from = funded();
    const to = Keypair.generate().publicKey;
    const a = transferTx(from, to, 1_000_000n);
    const b = transferTx(from, to, 1_000_000n);
    expect(a.signature).not.toBe(b.signature);
    const flags = { simulate: false, confirm: true, simulationFailedDetail: "x" };
    const [ra, rb] = await Promise.all([chain.submit(a, flags), chain.submit(b, flags)]);
    expect(ra.confirmed && rb.confirmed).toBe(true);
    expect((await chain.rpc.getBalance(to)).value).toBe(2_000_000n);
  });

  for (const errorKind of ["http429", "http500", "rpcError"] as const) {
    it(`recovers reads from ${errorKind} faults by retrying`, async () => {
      net.admin.setFaults({ errorCount: 2, errorKind, methods: ["getMultipleAccounts"] });
      const res = await chain.rpc.getMultipleAccounts([LAUNCH_GLOBAL]);
      expect(res.value[0]).not.toBeNull();
      expect(stats()["rpc.getMultipleAccounts"]).toBe(3);
    });
  }

  it("times out a hanging read", async () => {
    const rpc = createRpcClient({ url: net.rpcUrl, timeoutMs: 200, readRetries: 0 });
    net.admin.setFaults({ hangMs: 2000, methods: ["getSlot"] });
    await expect(rpc.getSlot()).rejects.toBeInstanceOf(TimeoutError);
  });

  it("a relay failure is a 502 with the relay's detail and the signature", async () => {
    const tx = transferTx(funded(), Keypair.generate().publicKey, 1_000n);
    net.admin.setFaults({ errorCount: 1, errorKind: "http500", endpoints: ["relay"] });
    const e = await chain
      .submit(tx, { simulate: false, confirm: true, simulationFailedDetail: "x" })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SubmissionError);
    expect(answerOf(e)).toMatchObject({ status: 502, extra: { signature: tx.signature } });
    expect((e as SubmissionError).detail).toContain("500");
  });

  it("a relay rejection (tip below the minimum) is a 502 carrying the relay's reason", async () => {
    const from = funded();
    const tx = chain.assemble({
      kind: "transfer",
      payer: from,
      instructions: [
        SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: from.publicKey, lamports: 1n }),
      ],
      tip: { accounts: chain.relayTip().accounts, lamports: 1n },
    });
    const e = await chain
      .submit(tx, { simulate: false, confirm: false, simulationFailedDetail: "x" })
      .catch((x: unknown) => x);
    expect(answerOf(e)).toMatchObject({ status: 502, extra: { signature: tx.signature } });
    expect(e).toMatchObject({ maybeSent: false });
    expect((e as SubmissionError).detail.length).toBeGreaterThan(10);
  });

  it("a send that never lands ends with confirmed false after the wait, rebroadcasting meanwhile", async () => {
    net.admin.setFaults({ neverLand: true });
    const tx = transferTx(funded(), Keypair.generate().publicKey, 1_000n);
    const r = await chain.submit(tx, { simulate: false, confirm: true, simulationFailedDetail: "x" });
    expect(r).toMatchObject({ confirmed: false, confirmationStatus: null });
    expect(stats()["relay.sendTransaction"]).toBeGreaterThan(1);
  });

  it("a failed simulation is the spec's 400 with the decoded program error, and nothing is sent", async () => {
    const { mint } = net.admin.createToken();
    const user = funded();
    const tx = await curveBuy(user, new PublicKey(mint), 10n ** 18n);
    net.admin.resetStats();
    const e = await chain
      .submit(tx, { simulate: true, confirm: true, simulationFailedDetail: SPEC.trade.simulationFailed })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SubmissionError);
    expect(answerOf(e)).toMatchObject({ status: 400, detail: "trade simulation failed" });
    expect(e).toMatchObject({ maybeSent: false });
    const extra = (e as SubmissionError).extra as {
      program_error?: { program: string; name: string | null };
    };
    expect(extra.program_error?.program).toBe("launch");
    expect(extra.program_error?.name).toMatch(/Slippage|TooLittle/);
    expect(stats()["relay.sendTransaction"]).toBeUndefined();
  });

  it("a transaction failing on chain is a 502 with the decoded program error", async () => {
    const { mint } = net.admin.createToken();
    const tx = await curveBuy(funded(), new PublicKey(mint), 10n ** 18n);
    const e = await chain
      .submit(tx, { simulate: false, confirm: true, simulationFailedDetail: "x" })
      .catch((x: unknown) => x);
    expect(answerOf(e)).toMatchObject({ status: 502, extra: { signature: tx.signature } });
    expect(e).toMatchObject({ landedWithError: true });
    expect((e as SubmissionError).detail).toMatch(/^transaction failed on chain: launch program error/);
  });

  it("lands a bundle and reports its confirmation", async () => {
    const from = funded();
    const to = Keypair.generate().publicKey;
    const tx = chain.assemble({
      kind: "transfer",
      payer: from,
      instructions: [
        SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: 1_000_000n }),
      ],
      tip: { accounts: await chain.bundleTipAccounts(), lamports: 1_000n },
    });
    const r = await chain.submitBundle([tx], { confirm: true });
    expect(r.bundleId).toMatch(/^[0-9a-f]{64}$/);
    expect(r.confirmed).toBe(true);
    expect(["confirmed", "finalized"]).toContain(r.confirmationStatus);
    expect((await chain.rpc.getBalance(to)).value).toBe(1_000_000n);
  });

  it("maps Failed and never-landing bundles to the spec's 502 texts", async () => {
    const bundleTx = async () => {
      const from = funded();
      return chain.assemble({
        kind: "transfer",
        payer: from,
        instructions: [
          SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: from.publicKey, lamports: 1n }),
        ],
        tip: { accounts: await chain.bundleTipAccounts(), lamports: 1_000n },
      });
    };
    net.admin.setFaults({ bundleFailed: true });
    const failed = await chain.submitBundle([await bundleTx()], { confirm: true }).catch((x: unknown) => x);
    expect(answerOf(failed)).toMatchObject({ status: 502, detail: SPEC.bundle.failed });
    net.admin.setFaults({ bundleInvalid: true });
    const tx = await bundleTx();
    const late = await submitBundle({
      bundleRelay: chain.bundleRelay,
      wires: [tx.wire],
      signatures: [tx.signature],
      confirm: true,
      timeoutMs: 1000,
      pollMs: 100,
      clock: systemClock,
    }).catch((x: unknown) => x);
    expect(answerOf(late)).toMatchObject({ status: 502, detail: SPEC.bundle.timedOut });
  });
});
