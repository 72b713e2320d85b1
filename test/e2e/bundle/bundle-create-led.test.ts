/**
 * Create-led bundles through POST /v1/laser/bundle against the localnet: a create with its dev buy and three
 * buyer wallets lands atomically, each buyer receives exactly the tokens quoted against the curve model
 * advanced by the dev buy and every earlier buyer, the tip is paid once by the first leg's wallet, and a
 * bundle whose last leg fails changes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { Keypair, PublicKey } from "@solana/web3.js";
import { bundleIdOf } from "../../../src/domain/bundle/service.js";
import { quoteCreateLedBuys } from "../../../src/domain/bundle/shape.js";
import { createdCoinFees } from "../../../src/domain/create/plan.js";
import { quoteInitialBuy } from "../../../src/domain/create/request.js";
import { SPEC } from "../../../src/core/errors.js";
import { curveConfigs } from "../../../src/domain/trade/configs.js";
import { freshCurve } from "../../../src/launch/quote-inputs.js";
import { bondingCurveAddress } from "../../../src/launch/programs.js";
import { decodeBondingCurve } from "../../../src/launch/state.js";
import { startE2eWithLookupTable, type E2e } from "../../helpers/e2e.js";
import { expectChainUnavailable } from "../../helpers/no-chain.js";
import { expectAuthRequired } from "../../helpers/security.js";

const URI = "https://example.com/metadata/bundle-create-led-0123456789abcdef.json";

let e2e: E2e;
beforeAll(async () => {
  // No background refresh, so round-trip counts are the request's own; the caches are refreshed before each test.
  e2e = await startE2eWithLookupTable({ chain: { cacheRefreshMs: 600_000 } });
});
afterAll(async () => {
  await e2e?.close();
});
beforeEach(async () => {
  await e2e.chain.caches.refresh();
  e2e.reset();
});

interface BundleBody {
  bundle_id: string;
  results: { index: number; type: string; wallet: string; signature: string }[];
  mint: string;
  confirmed: boolean;
  confirmation_status: string | null;
}

async function tipBalances(): Promise<bigint> {
  let sum = 0n;
  for (const a of e2e.localnet.bundleTipAccounts) sum += await e2e.balance(a);
  return sum;
}

async function staticKeys(signature: string): Promise<string[]> {
  const tx = await e2e.connection.getTransaction(signature, {
    commitment: "confirmed",
    maxSupportedTransactionVersion: 0,
  });
  if (tx === null) throw new Error(`transaction ${signature} not found`);
  return tx.transaction.message.staticAccountKeys.map((k) => k.toBase58());
}

describe("create-led bundles", () => {
  it("a create with a dev buy and three buyer wallets lands atomically, each buyer quoted in order", async () => {
    const { apiKey, wallet: creator } = await e2e.setup();
    const buyers = [
      await e2e.fundedWallet(apiKey, 2n),
      await e2e.fundedWallet(apiKey, 2n),
      await e2e.fundedWallet(apiKey, 2n),
    ];
    const everyone = [creator, ...buyers];
    const before = await Promise.all(everyone.map((w) => e2e.balance(w)));
    const tipsBefore = await tipBalances();

    const res = await e2e.post(apiKey, "/v1/laser/bundle", {
      accounts: [
        { type: "create", name: "Bundle", symbol: "BNDL", uri: URI, initial_buy: "0.5", slippage: 1 },
        { type: "buy", wallet: buyers[0], amount: "0.3" },
        { type: "buy", wallet: buyers[1], amount: 0.3, slippageBps: 100 },
        { type: "buy", wallet: buyers[2], amount: "1.2", denominatedInSol: "true" },
      ],
      bundleTip: "0.00001",
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<BundleBody>();
    expect(body.bundle_id).toMatch(/^[0-9a-f]{64}$/);
    // The id recorded before sending is the one the relay derived.
    expect(body.bundle_id).toBe(bundleIdOf(body.results.map((r) => r.signature)));
    expect(body.confirmed).toBe(true);
    expect(["confirmed", "finalized"]).toContain(body.confirmation_status);
    expect(body.results.map((r) => [r.index, r.type, r.wallet])).toEqual([
      [0, "create", creator],
      [1, "buy", buyers[0]],
      [2, "buy", buyers[1]],
      [3, "buy", buyers[2]],
    ]);

    // The coin exists, created by the first leg's wallet; every wallet changed.
    const curveInfo = await e2e.connection.getAccountInfo(bondingCurveAddress(new PublicKey(body.mint)));
    expect(decodeBondingCurve(curveInfo!.data).creator.toBase58()).toBe(creator);
    const after = await Promise.all(everyone.map((w) => e2e.balance(w)));
    after.forEach((b, i) => expect(b).toBeLessThan(before[i]!));

    // Token amounts on chain equal the quotes against the advanced curve model, buyer after buyer.
    const config = curveConfigs(e2e.chain.caches);
    const feesAt = createdCoinFees(config, false);
    const fresh = freshCurve(config.global);
    const dev = quoteInitialBuy(fresh, { lamports: 500_000_000n, slippageBps: 100n }, feesAt(fresh));
    const quotes = quoteCreateLedBuys(
      dev.curveAfter,
      [
        { amount: 300_000_000n, slippageBps: 200n },
        { amount: 300_000_000n, slippageBps: 100n },
        { amount: 1_200_000_000n, slippageBps: 200n },
      ],
      feesAt,
    );
    expect(await e2e.tokenBalance(creator, body.mint)).toBe(dev.tokensOut);
    for (const [i, buyer] of buyers.entries()) {
      expect(await e2e.tokenBalance(buyer, body.mint)).toBe(quotes[i]!.tokensOut);
    }
    // Equal buys later in the bundle get fewer tokens: the model really advanced.
    expect(quotes[1]!.tokensOut).toBeLessThan(quotes[0]!.tokensOut);

    // The tip is paid once, in the first leg's transaction only.
    expect((await tipBalances()) - tipsBefore).toBe(10_000n);
    const tips = new Set(e2e.localnet.bundleTipAccounts);
    const tipped = await Promise.all(
      body.results.map(async (r) => (await staticKeys(r.signature)).some((k) => tips.has(k))),
    );
    expect(tipped).toEqual([true, false, false, false]);

    // One execution with every leg's wallet and signature and the bundle id.
    const history = await e2e.get(apiKey, "/v1/executions?kind=bundle");
    const records = history.json<{ executions: Record<string, unknown>[] }>().executions;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: "bundle",
      wallet: creator,
      wallets: everyone,
      signatures: body.results.map((r) => r.signature),
      bundle_id: body.bundle_id,
      status: "confirmed",
    });
  });

  it("for random dev buys, buyer amounts and mayhem, every wallet gets exactly its quoted tokens", async () => {
    const { apiKey, wallet: creator } = await e2e.setup({ sol: 500n });
    const buyers = [
      await e2e.fundedWallet(apiKey, 500n),
      await e2e.fundedWallet(apiKey, 500n),
      await e2e.fundedWallet(apiKey, 500n),
    ];
    const lamports = fc.bigInt({ min: 1_000_000n, max: 5_000_000_000n });
    await fc.assert(
      fc.asyncProperty(
        lamports,
        fc.array(lamports, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (dev, buys, mayhem) => {
          await e2e.chain.caches.refresh(); // a fresh blockhash for every run
          const sol = (l: bigint) =>
            `${l / 1_000_000_000n}.${(l % 1_000_000_000n).toString().padStart(9, "0")}`;
          const res = await e2e.post(apiKey, "/v1/laser/bundle", {
            accounts: [
              {
                type: "create",
                name: "Prop",
                symbol: "PROP",
                uri: URI,
                initial_buy: sol(dev),
                mayhem_mode: mayhem,
              },
              ...buys.map((l, i) => ({ type: "buy", wallet: buyers[i], amount: sol(l) })),
            ],
            bundleTip: "0.000001",
          });
          expect(res.statusCode, res.body).toBe(200);
          const { mint } = res.json<BundleBody>();
          const config = curveConfigs(e2e.chain.caches);
          const feesAt = createdCoinFees(config, mayhem);
          const fresh = freshCurve(config.global);
          const devQuote = quoteInitialBuy(fresh, { lamports: dev, slippageBps: 200n }, feesAt(fresh));
          const quotes = quoteCreateLedBuys(
            devQuote.curveAfter,
            buys.map((amount) => ({ amount, slippageBps: 200n })),
            feesAt,
          );
          expect(await e2e.tokenBalance(creator, mint)).toBe(devQuote.tokensOut);
          for (const [i, q] of quotes.entries()) {
            expect(await e2e.tokenBalance(buyers[i]!, mint)).toBe(q.tokensOut);
          }
        },
      ),
      { numRuns: 8 },
    );
  });

  it("legs without a wallet use the default wallet; a create-led bundle reads only its wallets' balances", async () => {
    const { apiKey, wallet } = await e2e.setup();
    e2e.reset();
    const res = await e2e.post(apiKey, "/v1/laser/bundle", {
      accounts: [
        { type: "create", name: "Self", symbol: "SELF", uri: URI, initial_buy: "0.1" },
        { type: "buy", amount: "0.1" },
      ],
      bundleTip: "0.00001",
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<BundleBody>();
    expect(body.results.map((r) => r.wallet)).toEqual([wallet, wallet]);
    expect(new Set(body.results.map((r) => r.signature)).size).toBe(2);
    const trips = e2e.roundTrips();
    // Issue 22: one read of the legs' wallets, for the pre-send affordability check.
    expect(trips["rpc.getMultipleAccounts"]).toBe(1);
    expect(trips["rpc.simulateTransaction"]).toBeUndefined();
    expect(trips["bundle.sendBundle"]).toBe(1);
    // Both buys landed in the creator's one token account.
    const config = curveConfigs(e2e.chain.caches);
    const feesAt = createdCoinFees(config, false);
    const fresh = freshCurve(config.global);
    const dev = quoteInitialBuy(fresh, { lamports: 100_000_000n, slippageBps: 200n }, feesAt(fresh));
    const [second] = quoteCreateLedBuys(
      dev.curveAfter,
      [{ amount: 100_000_000n, slippageBps: 200n }],
      feesAt,
    );
    expect(await e2e.tokenBalance(wallet, body.mint)).toBe(dev.tokensOut + second!.tokensOut);
  });

  it("a bundle whose last leg cannot pay is refused before sending, naming the leg; nothing moves", async () => {
    const { apiKey, wallet: creator } = await e2e.setup();
    const rich = await e2e.fundedWallet(apiKey, 2n);
    const poor = await e2e.fundedWallet(apiKey, 0n);
    e2e.localnet.admin.fund(poor, 10_000_000n); // 0.01 SOL cannot pay for a 1 SOL buy
    const everyone = [creator, rich, poor];
    const before = await Promise.all(everyone.map((w) => e2e.balance(w)));
    const tipsBefore = await tipBalances();

    const res = await e2e.post(apiKey, "/v1/laser/bundle", {
      accounts: [
        { type: "create", name: "Fail", symbol: "FAIL", uri: URI, initial_buy: "0.1" },
        { type: "buy", wallet: rich, amount: "0.2" },
        { type: "buy", wallet: poor, amount: "1" },
      ],
      bundleTip: 0.000001,
    });
    // Issue 22: before this, the relay answered 502 `bundle failed` with no reason.
    expect(res.statusCode).toBe(400);
    const body = res.json<{ detail: string; index: number; wallet: string }>();
    expect(body.detail).toMatch(
      new RegExp(
        `^insufficient SOL: wallet ${poor} has 0\\.010000000 SOL, this bundle leg 2 needs about 1\\.0\\d+ SOL$`,
      ),
    );
    expect(body).toMatchObject({ index: 2, wallet: poor });
    expect(e2e.roundTrips()["bundle.sendBundle"]).toBeUndefined();

    expect(await Promise.all(everyone.map((w) => e2e.balance(w)))).toEqual(before);
    expect(await tipBalances()).toBe(tipsBefore);
    const history = await e2e.get(apiKey, "/v1/executions?kind=bundle");
    expect(history.json<{ executions: Record<string, unknown>[] }>().executions).toEqual([]);
  });

  it("a single create leg is a bundle too; the creator pays the tip", async () => {
    const { apiKey, wallet } = await e2e.setup();
    const tipsBefore = await tipBalances();
    const res = await e2e.post(apiKey, "/v1/laser/bundle", {
      accounts: [{ type: "create", name: "Solo", symbol: "SOLO", metadataUrl: URI }],
      bundle_tip: "0.000002",
      confirm: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<BundleBody>();
    expect(body).toMatchObject({ confirmed: false, confirmation_status: null });
    expect(body.results).toEqual([{ index: 0, type: "create", wallet, signature: expect.any(String) }]);
    // The localnet lands accepted bundles at once, so the effect is visible without confirmation.
    expect((await tipBalances()) - tipsBefore).toBe(2_000n);
  });

  it("a leg naming a wallet of another key is 404 wallet not found with its index; nothing is read or sent", async () => {
    const { apiKey } = await e2e.setup();
    const stranger = await e2e.setup();
    e2e.reset();
    const res = await e2e.post(apiKey, "/v1/laser/bundle", {
      accounts: [
        { type: "create", name: "X", symbol: "X", uri: URI },
        { type: "buy", wallet: stranger.wallet, amount: "0.1" },
      ],
      bundleTip: "0.00001",
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "wallets.not_found", detail: "wallet not found", index: 1 });
    expect(e2e.roundTrips()).toEqual({});
  });

  it("shape errors are the spec's 400 texts and send nothing", async () => {
    const { apiKey } = await e2e.setup();
    const create = { type: "create", name: "X", symbol: "X", uri: URI };
    const cases: [Record<string, unknown>, string][] = [
      [{ accounts: [], bundleTip: "0.001" }, SPEC.bundle.legCount],
      [{ accounts: [create, create, create, create, create], bundleTip: "0.001" }, SPEC.bundle.legCount],
      [{ accounts: [{ type: "buy", amount: "0.1" }], bundleTip: "0.001" }, SPEC.bundle.mintRequired],
      [
        { accounts: [create], mint: Keypair.generate().publicKey.toBase58(), bundleTip: "0.001" },
        SPEC.bundle.mintWithCreate,
      ],
      [{ accounts: [create, { type: "buy" }], bundleTip: "0.001" }, SPEC.bundle.amountRequired],
      [
        { accounts: [create, { type: "buy", amount: "5", denominatedInSol: false }], bundleTip: "0.001" },
        SPEC.bundle.newTokenLegs,
      ],
      [
        { accounts: [create, { type: "sell", amount: "5", denominatedInSol: false }], bundleTip: "0.001" },
        SPEC.bundle.sellAfterCreate,
      ],
      [
        { accounts: [create, { type: "buy", amount: "0.1", slippageBps: 5001 }], bundleTip: "0.001" },
        SPEC.bundle.slippageBpsMax,
      ],
      [{ accounts: [create], bundleTip: "0.0000009" }, SPEC.bundle.tipMin],
      [{ accounts: [{ ...create, uri: "ftp://x" }], bundleTip: "0.001" }, SPEC.create.uriInvalid],
    ];
    e2e.reset();
    for (const [request, detail] of cases) {
      const res = await e2e.post(apiKey, "/v1/laser/bundle", request);
      expect([res.statusCode, res.json()]).toEqual([
        400,
        { detail, code: expect.stringMatching(/^[a-z]+\.[a-z0-9_]+$/) },
      ]);
    }
    expect(e2e.roundTrips()).toEqual({});
  });

  it("requires a valid x-api-key", async () => {
    await expectAuthRequired(e2e.app, "POST", "/v1/laser/bundle");
  });

  it("answers 503 on an app built without chain access", async () => {
    await expectChainUnavailable("/v1/laser/bundle");
  });
});
