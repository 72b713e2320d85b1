/**
 * The trade's submission path against the localnet: simulation refusals with nothing sent, confirm false,
 * never-landing sends, retried reads, relay failures, and the upstream round trips of one trade.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FOUNDATION, SPEC } from "../../../src/core/errors.js";
import { startE2e, trade, type E2e } from "../../helpers/e2e.js";
import { useE2e } from "../../helpers/use-e2e.js";

const e2e = useE2e();

const EXECUTE = "/v1/trades/execute";

interface HistoryRow {
  status: string;
  signatures: string[];
  confirmation_status: string | null;
  error: { detail?: string; program_error?: { code: number; name: string | null }; logs?: string[] } | null;
}

async function history(apiKey: string, query = ""): Promise<HistoryRow[]> {
  const res = await e2e.get(apiKey, `/v1/executions${query}`);
  expect(res.statusCode).toBe(200);
  return res.json<{ executions: HistoryRow[] }>().executions;
}

async function signatureStatus(signature: string) {
  const { value } = await e2e.connection.getSignatureStatuses([signature]);
  return value[0];
}

describe("trade submission", () => {
  it("simulate: true with a slippage the market no longer allows is refused and nothing is sent", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const rival = await e2e.fundedWallet(apiKey, 10n);
    const { mint } = e2e.localnet.admin.createToken();
    // Hold the simulation until a rival buy has moved the price past the 0 % threshold (a hang is all before
    // the handling; latency would handle the call half-way). The rival's confirmed buy takes about 100 ms.
    e2e.localnet.admin.setFaults({ methods: ["simulateTransaction"], hangMs: 1_500 });
    const pending = e2e.post(apiKey, EXECUTE, { action: "buy", mint, amount: "1", slippage: 0 });
    for (let i = 0; i < 500 && (e2e.localnet.admin.stats()["rpc.simulateTransaction"] ?? 0) === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(e2e.localnet.admin.stats()["rpc.simulateTransaction"]).toBe(1);
    const rivalBuy = await trade(e2e, apiKey, {
      action: "buy",
      mint,
      amount: "2",
      simulate: false,
      wallet: rival,
    });
    expect(rivalBuy.confirmed).toBe(true);

    const res = await pending;
    expect(res.statusCode).toBe(400);
    const body = res.json<{
      detail: string;
      program_error?: { code: number; name: string | null };
      logs?: string[];
    }>();
    expect(body.detail).toBe(SPEC.trade.simulationFailed);
    expect(body.program_error?.code).toBeGreaterThan(6000);
    expect(body.program_error?.name).toBeTruthy();
    expect(Array.isArray(body.logs)).toBe(true);
    // Only the rival's transaction went through the relay.
    expect(e2e.localnet.admin.stats()["relay.sendTransaction"]).toBe(1);
    expect(e2e.localnet.admin.stats()["rpc.sendTransaction"] ?? 0).toBe(0);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);

    const [failed] = await history(apiKey, `?wallet=${wallet}`);
    expect(failed?.status).toBe("failed");
    expect(failed?.error?.detail).toBe(SPEC.trade.simulationFailed);
    expect(failed?.error?.program_error?.code).toBe(body.program_error?.code);
    expect(await signatureStatus(failed!.signatures[0]!)).toBeNull();
  });

  it("a transaction that lands and fails (simulate off) is a 502 with the decoded program error", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    // Hold the send until the curve has completed under it (a hang: the send executes after it). The curve
    // completes as soon as the send is seen (within 10 ms).
    e2e.localnet.admin.setFaults({ endpoints: ["relay"], hangMs: 300 });
    const pending = e2e.post(apiKey, EXECUTE, { action: "buy", mint, amount: "0.1", simulate: false });
    for (let i = 0; i < 500 && (e2e.localnet.admin.stats()["relay.sendTransaction"] ?? 0) === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    e2e.localnet.admin.complete(mint);
    const res = await pending;
    expect(res.statusCode).toBe(502);
    const body = res.json<{
      detail: string;
      signature: string;
      program_error?: { program: string; code: number; name: string | null };
      logs?: string[];
    }>();
    expect(body.detail).toMatch(/^transaction failed on chain: /);
    expect(body.program_error?.program).toBe("launch");
    expect(body.program_error?.name).toBeTruthy();
    expect(body.logs?.length).toBeGreaterThan(0);
    expect((await signatureStatus(body.signature))?.err).toBeTruthy();
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
    const [row] = await history(apiKey);
    expect(row?.status).toBe("failed");
    expect(row?.error?.program_error?.code).toBe(body.program_error?.code);
  });

  it("confirm: false answers confirmed false and confirmation_status null", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    const body = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01", confirm: false });
    expect(body.confirmed).toBe(false);
    expect(body.confirmation_status).toBeNull();
    expect(e2e.localnet.admin.stats()["rpc.getSignatureStatuses"] ?? 0).toBe(0);
    const [row] = await history(apiKey);
    expect(row?.status).toBe("submitted");
  });

  it("a send that never lands ends with confirmed false after the wait, not an error", async () => {
    const { apiKey } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.localnet.admin.setFaults({ neverLand: true });
    const body = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
    expect(body.confirmed).toBe(false);
    expect(body.confirmation_status).toBeNull();
    expect(e2e.localnet.admin.stats()["rpc.getSignatureStatuses"]).toBeGreaterThan(1);
    const [row] = await history(apiKey);
    expect(row?.status).toBe("timeout");
  });

  it.each(["http429", "http500"] as const)("%s answers on reads are retried", async (errorKind) => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    // A background cache refresh must not take the injected errors meant for the trade's own read.
    e2e.chain.caches.stop();
    try {
      e2e.reset();
      e2e.localnet.admin.setFaults({ methods: ["getMultipleAccounts"], errorCount: 2, errorKind });
      const body = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01" });
      expect(body.confirmed).toBe(true);
      // Two refused attempts, then the retry that was served.
      expect(e2e.roundTrips()["rpc.getMultipleAccounts"]).toBe(3);
    } finally {
      await e2e.chain.caches.start();
    }
    expect(await e2e.tokenBalance(wallet, mint)).toBeGreaterThan(0n);
  });

  it("a relay failure is a 502 with the relay's detail and the signature; the record is failed", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.localnet.admin.setFaults({ endpoints: ["relay"], errorCount: 1, errorKind: "http500" });
    const res = await e2e.post(apiKey, EXECUTE, { action: "buy", mint, amount: "0.01" });
    expect(res.statusCode).toBe(502);
    const body = res.json<{ detail: string; signature: string }>();
    expect(body.detail).toMatch(/sendTransaction: HTTP 500/);
    expect(body.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(await e2e.tokenBalance(wallet, mint)).toBe(0n);
    const [row] = await history(apiKey);
    expect(row?.status).toBe("failed");
    expect(row?.signatures).toEqual([body.signature]);
  });

  it("a named wallet of another key is 404 before any chain access", async () => {
    const { apiKey } = await e2e.setup();
    const { wallet: foreign } = await e2e.setup();
    const { mint } = e2e.localnet.admin.createToken();
    e2e.reset();
    const res = await e2e.post(apiKey, EXECUTE, { action: "buy", mint, amount: "0.01", wallet: foreign });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "wallets.not_found", detail: FOUNDATION.walletNotFound });
    expect(e2e.roundTrips()).toEqual({});
  });
});

describe("round trips of one trade", () => {
  let quiet: E2e;
  beforeAll(async () => {
    // No background cache refresh during the measurement: only the request's own calls are counted.
    quiet = await startE2e({ chain: { cacheRefreshMs: 600_000 } });
  });
  afterAll(async () => {
    await quiet?.close();
  });

  it("with simulate and confirm off: one read and one send", async () => {
    const { apiKey } = await quiet.setup();
    const { mint } = quiet.localnet.admin.createToken();
    await quiet.chain.caches.refresh();
    quiet.reset();
    const body = await trade(quiet, apiKey, {
      action: "buy",
      mint,
      amount: "0.01",
      simulate: false,
      confirm: false,
    });
    expect(body.confirmed).toBe(false);
    const counted = quiet.roundTrips();
    console.log(`upstream round trips of one trade (simulate off, confirm off): ${JSON.stringify(counted)}`);
    expect(counted).toEqual({ "rpc.getMultipleAccounts": 1, "relay.sendTransaction": 1 });

    // With the defaults (simulate and confirm on) the extra calls are the simulation and the status polls.
    await quiet.chain.caches.refresh();
    quiet.reset();
    await trade(quiet, apiKey, { action: "sell", mint, amount: "100%" });
    const full = quiet.roundTrips();
    console.log(`upstream round trips of one trade (simulate on, confirm on): ${JSON.stringify(full)}`);
    expect(full["rpc.getMultipleAccounts"]).toBe(1);
    expect(full["rpc.simulateTransaction"]).toBe(1);
    expect(full["relay.sendTransaction"]).toBe(1);
    expect(full["rpc.getSignatureStatuses"]).toBeGreaterThanOrEqual(1);
  });
});
