/**
 * Issue 29 finding 4, the other side: every execution kind the service builds is bounded (no instruction the
 * worst-case reader does not know), so a key with generous SOL caps still does all of them, and the 24 h cap
 * counts what they spent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startE2eWithLookupTable, external, type E2e } from "../helpers/e2e.js";
import { callWith, createSubKey } from "../helpers/security.js";

const URI = "https://example.com/metadata/spend-kinds-0123456789abcdef.json";
let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2eWithLookupTable();
});
afterAll(async () => {
  await e2e?.close();
});
beforeEach(() => e2e.reset());

describe("spend bounds: every execution kind is bounded", () => {
  it("a capped key creates, buys (SOL and token units, curve and swap), sells, claims, transfers and bundles", async () => {
    const { apiKey: root, wallet } = await e2e.setup({ sol: 20n });
    const bot = await createSubKey(e2e.app, root, {
      name: "bot",
      scopes: ["trade", "create", "transfer", "read"],
    });
    const put = await callWith(e2e.app, root, "PUT", `/v1/keys/${bot.id}/policy`, {
      max_sol_per_execution: "5",
      max_sol_per_24h: "15",
    });
    expect(put.status).toBe(200);
    const ok = async (url: string, body: Record<string, unknown>) => {
      const r = await callWith(e2e.app, bot.apiKey, "POST", url, body);
      expect(r.status, `${url} ${JSON.stringify(r.body)}`).toBe(200);
      return r.body;
    };
    const created = await ok("/v1/laser/create", {
      name: "Caps",
      symbol: "CAP",
      uri: URI,
      initial_buy: "0.1",
    });
    const mint = created.mint as string;
    await ok("/v1/trades/execute", { action: "buy", mint, amount: "0.1" });
    await ok("/v1/trades/execute", { action: "buy", mint, amount: "1000000000", denominated_in_sol: false });
    await ok("/v1/trades/execute", { action: "sell", mint, amount: "50%" });
    const swap = e2e.localnet.admin.createToken().mint;
    e2e.localnet.admin.complete(swap);
    e2e.localnet.admin.migrate(swap);
    await ok("/v1/trades/execute", { action: "buy", mint: swap, amount: "0.1" });
    await ok("/v1/trades/execute", {
      action: "buy",
      mint: swap,
      amount: "1000000000",
      denominated_in_sol: false,
    });
    await ok("/v1/trades/execute", { action: "sell", mint: swap, amount: "100%" });
    e2e.localnet.admin.setCashback(wallet, { bondingLamports: 2_000_000n, swapLamports: 3_000_000n });
    await ok("/v1/cashback/claim/execute", {});
    await ok("/v1/sol/transfer/execute", { destination_wallet: external(), amount: "0.1" });
    await ok("/v1/sol/transfer/execute", { destination_wallet: external(), mint, amount: "1000" });
    await ok("/v1/laser/bundle", {
      mint,
      accounts: [{ type: "buy", amount: "100000000", denominatedInSol: false }],
      bundleTip: "0.00001",
    });
    await ok("/v1/laser/bundle", {
      accounts: [{ type: "create", name: "Bundle", symbol: "BNDL", uri: URI, initial_buy: "0.1" }],
      bundleTip: "0.00001",
    });
    // Every execution recorded (a claim is one per source), each with its reservation inside the cap.
    const executions = (await callWith(e2e.app, root, "GET", "/v1/executions?limit=100")).body
      .executions as unknown[];
    expect(executions.length).toBe(13);
    const reserved = await e2e.store.spentLamports(bot.id, 0);
    expect(reserved).toBeGreaterThan(500_000_000n);
    expect(reserved).toBeLessThanOrEqual(15_000_000_000n);
  });
});
