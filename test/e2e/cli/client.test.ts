/**
 * @lasertrade/client against the real app on a real port (localnet behind it): every endpoint once, lamport
 * fields as bigint, and one error of each class (400, 401, 404, 409, 422, 429, 502, network).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Keypair } from "@solana/web3.js";
import bs58 from "bs58";
import { LaserTrade, LaserTradeError } from "@lasertrade/client";
import { FOUNDATION, IDEMPOTENCY, SPEC } from "../../../src/core/errors.js";
import type { E2e } from "../../helpers/e2e.js";
import { startListeningE2e } from "../../helpers/sandbox-e2e.js";

let e2e: E2e;
let close = async (): Promise<void> => {};
const NO_RETRY = { retry: { retries: 0 } };
let baseUrl = "";
let client: LaserTrade;
let wallet = "";

/** The LaserTradeError a call rejects with. */
async function failure(p: Promise<unknown>): Promise<LaserTradeError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LaserTradeError);
  return e as LaserTradeError;
}

beforeAll(async () => {
  ({ e2e, baseUrl, close } = await startListeningE2e());
  const setup = await LaserTrade.setup(baseUrl);
  expect(setup.api_key).toMatch(/^lt_/);
  client = setup.client;
  wallet = setup.wallet_public_key;
  e2e.localnet.admin.fund(wallet, 20_000_000_000n);
});

afterAll(() => close());
beforeEach(() => e2e.reset());

describe("@lasertrade/client", () => {
  it("manages wallets: create, import, list, set default, delink", async () => {
    const created = await client.wallets.create();
    expect(created.private_key_format).toBe("base58_64_byte_secret_key");
    const kp = Keypair.generate();
    const imported = await client.wallets.import({ private_key_base58: bs58.encode(kp.secretKey) });
    expect(imported.public_key).toBe(kp.publicKey.toBase58());
    expect((await client.wallets.setDefault(imported.public_key)).is_default).toBe(true);
    expect((await client.wallets.list()).map((w) => w.public_key)).toEqual([
      wallet,
      created.public_key,
      imported.public_key,
    ]);
    expect(await client.wallets.delink(created.public_key)).toEqual({ ok: true });
    await client.wallets.setDefault(wallet);
    expect(await client.wallets.delink(imported.public_key)).toEqual({ ok: true });
  });

  it("creates a token, buys with text and bigint amounts, sells a percentage; lamport fields are bigint", async () => {
    const token = await client.tokens.create({
      name: "Client",
      symbol: "CLI",
      uri: "https://example.com/cli.json",
      initial_buy: 10_000_000n,
    });
    expect(token.initial_buy?.amount).toBe("0.01");
    expect(token.initial_buy?.amount_lamports).toBe(10_000_000n);

    const buy = await client.trades.buy({ mint: token.mint, amount: "0.05" });
    expect(buy).toMatchObject({ action: "buy", confirmed: true, amount_units: 50_000_000n });
    expect(typeof buy.amount_units).toBe("bigint");
    const exact = await client.trades.buy({ mint: token.mint, amount: 20_000_000n });
    expect(exact.amount).toBe("0.02");

    const sell = await client.trades.sell({ mint: token.mint, amount: "50%" });
    expect(sell.action).toBe("sell");
    expect(sell.amount_units > 0n).toBe(true);

    const bundle = await client.bundles.submit({
      mint: token.mint,
      bundleTip: 10_000n,
      accounts: [{ type: "buy", amount: "0.01" }],
    });
    expect(bundle.results).toHaveLength(1);
    expect(bundle.confirmed).toBe(true);
  });

  it("checks and claims cashback", async () => {
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 7_000_000n, swapLamports: 0n });
    const check = await client.cashback.check();
    expect(check.wallets[0]?.launch_bonding_lamports).toBe(7_000_000n);
    expect(check.totals.combined_lamports).toBe(7_000_000n);
    expect(typeof check.rpc_slots[0]).toBe("number");
    const claim = await client.cashback.claim({ claim_launchswap: false });
    expect(claim.transactions.map((t) => [t.kind, t.claimable_lamports])).toEqual([
      ["bonding_curve", 7_000_000n],
    ]);
  });

  it("moves SOL: transfer, split, consolidate; the history lists every execution", async () => {
    const other = await client.wallets.create();
    const external = Keypair.generate().publicKey.toBase58();
    const sent = await client.sol.transfer({ destination_wallet: other.public_key, amount: 1_500_000_000n });
    expect(sent).toMatchObject({ amount: "1.5", amount_units: 1_500_000_000n, asset_type: "sol" });

    const split = await client.sol.split({
      source_wallet: other.public_key,
      total_percent: "50",
      destinations: [
        { wallet: external, sol: 100_000_000n },
        { wallet: Keypair.generate().publicKey.toBase58() },
      ],
    });
    expect(split.transfers[0]).toMatchObject({ lamports: 100_000_000n, mode: "fixed" });

    const swept = await client.sol.consolidate({
      destination_wallet: wallet,
      source_wallets: [other.public_key],
    });
    expect(swept.transactions).toHaveLength(1);
    expect(typeof swept.total_transfer_lamports).toBe("bigint");

    const page = await client.executions.list({ limit: 100 });
    const kinds = new Set(page.executions.map((e) => e.kind));
    for (const k of ["create", "trade", "bundle", "claim", "transfer", "split", "consolidate"])
      expect(kinds).toContain(k);
    expect(page.executions.every((e) => typeof e.idempotency_key === "string")).toBe(true);
    const trades = await client.executions.list({ kind: "trade", limit: 1 });
    expect(trades.executions).toHaveLength(1);
    expect(trades.next_offset).toBe(1);
  });

  it("throws LaserTradeError with status and detail: 400, 401, 404, 429, network", async () => {
    const { mint } = e2e.localnet.admin.createToken();
    const bad = await failure(client.trades.buy({ mint, amount: "0.0000000001" }));
    expect([bad.status, bad.detail]).toEqual([400, SPEC.trade.solDecimals]);

    const stranger = new LaserTrade({ baseUrl, apiKey: "lt_not_a_key", ...NO_RETRY });
    const unauthorized = await failure(stranger.wallets.list());
    expect([unauthorized.status, unauthorized.detail]).toEqual([401, FOUNDATION.apiKeyInvalid]);

    const missing = await failure(client.wallets.setDefault(Keypair.generate().publicKey.toBase58()));
    expect([missing.status, missing.detail]).toEqual([404, FOUNDATION.walletNotFound]);

    // One setup per IP per 5 s: a setup of our own first, so the next one is within the 5 s however slow the
    // machine was since the suite's own setup.
    await LaserTrade.setup(baseUrl, NO_RETRY).catch(() => undefined);
    const limited = await failure(LaserTrade.setup(baseUrl, NO_RETRY));
    expect([limited.status, limited.detail]).toEqual([429, FOUNDATION.setupRateLimited]);

    const down = new LaserTrade({ baseUrl: "http://127.0.0.1:9", apiKey: "k", ...NO_RETRY });
    const network = await failure(down.wallets.list());
    expect(network.status).toBe(0);
    expect(network.detail).toMatch(/^network error/);
  });

  it("sends an Idempotency-Key: the same key replays, a different body is 422, a running one 409", async () => {
    const { mint } = e2e.localnet.admin.createToken();
    const first = await client.trades.buy({ mint, amount: "0.01" }, { idempotencyKey: "client-k1" });
    const again = await client.trades.buy({ mint, amount: "0.01" }, { idempotencyKey: "client-k1" });
    expect(again.signature).toBe(first.signature);
    const other = await failure(client.trades.buy({ mint, amount: "0.02" }, { idempotencyKey: "client-k1" }));
    expect([other.status, other.detail]).toEqual([422, IDEMPOTENCY.differentRequest]);

    e2e.localnet.admin.setFaults({ endpoints: ["relay"], methods: ["sendTransaction"], latencyMs: 1_000 });
    const body = { mint, amount: "0.01", simulate: false, confirm: false };
    const slow = client.trades.buy(body, { idempotencyKey: "client-k2" });
    for (let i = 0; i < 500 && (e2e.localnet.admin.stats()["relay.sendTransaction"] ?? 0) === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const running = await failure(client.trades.buy(body, { idempotencyKey: "client-k2" }));
    expect([running.status, running.detail]).toEqual([409, IDEMPOTENCY.inProgress]);
    await slow;
  });

  it("carries the signature of a 502", async () => {
    const { mint } = e2e.localnet.admin.createToken();
    e2e.localnet.admin.setFaults({
      endpoints: ["relay"],
      methods: ["sendTransaction"],
      errorCount: 1,
      errorKind: "http500",
    });
    const failed = await failure(client.trades.buy({ mint, amount: "0.01", simulate: false }));
    expect(failed.status).toBe(502);
    expect(failed.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(failed.signatures).toEqual([failed.signature]);
  });
});
