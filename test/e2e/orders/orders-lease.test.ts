/**
 * The lease heartbeat: a fire slower than its claim's lease (a short ORDERS_LEASE_MS-like lease here, 300 ms,
 * and a fire held 1.2 s before it records anything) keeps its lease while it runs, so another process's
 * reclaim loop neither reopens nor takes it; the order is sent once and settles under its own process. The app
 * runs no engine here (no warm state): the two engines are built by the test, as two processes would be.
 */
import { describe, expect, it } from "vitest";
import { readAccountsAt } from "../../../src/chain/read-accounts.js";
import { OrderEngine } from "../../../src/domain/orders/engine.js";
import { fireOrder, type FireDeps } from "../../../src/domain/orders/fire.js";
import { newOrderId } from "../../../src/domain/orders/placement.js";
import { parseOrderRequest } from "../../../src/domain/orders/request.js";
import { resolveSpec, specToJson } from "../../../src/domain/orders/spec.js";
import { cachedTradeConfigs } from "../../../src/domain/trade/configs.js";
import { startWarmVenues } from "../../../src/domain/watch/setup.js";
import { tradeReadPlanOf } from "../../../src/launch/trade-plan-memo.js";
import type { OrderRecord } from "../../../src/store/index.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { until } from "../../helpers/warm.js";
import { move } from "./orders-fixture.js";

const e2e = useE2e({});
const LEASE_MS = 300;
const fees = { priorityFeeMaxLamports: 100_000_000n, tipMaxLamports: 100_000_000n };

describe("the lease of a slow fire", () => {
  it("is renewed while the fire runs: another process's reclaim does not take it; sent once", async () => {
    const mint = e2e.localnet.admin.createToken().mint;
    const holder = await e2e.setup({ sol: 10n });
    await move(e2e, holder.apiKey, "buy", mint, "0.5");
    const accountId = (await e2e.store.findApiKeyByHash(e2e.vault.hashApiKey(holder.apiKey)))!.id;
    const warm = startWarmVenues(
      e2e.chain,
      { watchMints: [], watchedMintsMax: 100, stateMaxAgeSlots: 150, watchIdleMs: 600_000 },
      () => undefined,
    );
    expect(warm).toBeDefined();
    const venues = warm!.venues;
    const errors: unknown[] = [];
    const fireDeps: FireDeps = {
      store: e2e.store,
      chain: e2e.chain,
      vault: e2e.vault,
      venues,
      custody: { clock: () => new Date(), computeUnitLimit: () => 200_000 },
      relayTipLamports: 0n,
      fees,
    };
    let fires = 0;
    let otherFires = 0;
    const settled: OrderRecord[] = [];
    const base = {
      store: e2e.store,
      venues,
      configs: cachedTradeConfigs(e2e.chain.caches),
      clock: () => new Date(),
      leaseMs: LEASE_MS,
      syncMs: 50,
      onError: (e: unknown) => errors.push(e),
      refresh: async (m: string) => {
        const plan = tradeReadPlanOf(m, m, null);
        const { accounts, slot } = await readAccountsAt({ rpc: e2e.chain.rpc }, plan.addresses);
        venues.afterRead(plan, accounts, slot);
      },
    };
    const slow = new OrderEngine({
      ...base,
      owner: "slow",
      fire: async (o, s) => {
        fires += 1;
        // Longer than the lease, before anything is recorded: a reclaim now would reopen it and send it twice.
        await new Promise((r) => setTimeout(r, 4 * LEASE_MS));
        return fireOrder(fireDeps, o, s);
      },
      onSettled: (r) => settled.push(r),
    });
    const other = new OrderEngine({
      ...base,
      owner: "other",
      fire: async () => {
        otherFires += 1;
        return { kind: "failed", detail: "must not fire", status: 500, executionId: null, extra: {} };
      },
    });
    try {
      const req = parseOrderRequest({ kind: "take_profit", mint, price: "0.000000001" }, fees, new Date());
      const units = await e2e.tokenBalance(holder.wallet, mint);
      const spec = resolveSpec(req, units, null);
      e2e.localnet.admin.resetRelaySignatures();
      const record = await e2e.store.insertOrder(
        {
          id: newOrderId(accountId),
          accountId,
          keyId: accountId,
          kind: spec.kind,
          side: spec.side,
          mint,
          wallet: holder.wallet,
          spec: specToJson(spec),
          expiresAt: null,
          peak: null,
        },
        1000,
      );
      slow.add(record);
      await until(
        async () => (await e2e.store.findOrder(accountId, record.id))?.state === "triggered",
        "claim",
      );
      // The other process's reclaim loop, many times over the fire's life.
      const deadline = Date.now() + 3 * LEASE_MS;
      while (Date.now() < deadline) {
        await other.reclaim();
        const row = await e2e.store.findOrder(accountId, record.id);
        if (row?.state === "triggered") expect(row.leaseOwner).toBe("slow");
        await new Promise((r) => setTimeout(r, LEASE_MS / 3));
      }
      await until(() => settled.some((r) => r.id === record.id), "the slow fire to settle");
      const done = await e2e.store.findOrder(accountId, record.id);
      expect(done).toMatchObject({ state: "filled", attempt: 1 });
      expect(done!.executionIds).toHaveLength(1);
      expect(fires).toBe(1);
      expect(otherFires).toBe(0);
      expect(e2e.localnet.admin.relaySignatures()).toHaveLength(1);
      expect(await e2e.tokenBalance(holder.wallet, mint)).toBe(0n);
    } finally {
      slow.close();
      other.close();
      warm!.close();
    }
  });
});
