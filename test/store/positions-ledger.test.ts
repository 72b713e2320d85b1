/**
 * Issue 33: the positions ledger on SQLite and PostgreSQL: a fill recorded by updateExecution (request path)
 * or settleExecution (reconciliation) moves its position in the same transaction and writes a position.updated
 * event; a rebuild from the execution history gives the same positions; listing filters and cursors.
 */
import { afterAll, describe, expect, it } from "vitest";
import { account, address } from "./positions-fixture.js";
import { openStore, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { positionsRebuildCommand } from "../../src/cli/positions-rebuild-command.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const schema = freshSchemaName("positions");
const engines: [string, () => Promise<Store>][] = [
  ["sqlite", () => openStore("sqlite::memory:", "./data")],
  ...(TEST_DATABASE_URL !== undefined
    ? [
        ["postgres", () => openStore(TEST_DATABASE_URL, "./data", { pgSchema: schema })] as [
          string,
          () => Promise<Store>,
        ],
      ]
    : []),
];

afterAll(async () => {
  if (TEST_DATABASE_URL !== undefined) await dropSchema(TEST_DATABASE_URL, schema);
});

interface Trade {
  side: "buy" | "sell";
  sol: bigint;
  tokens: bigint;
  after: bigint | null;
  fee?: bigint;
  tip?: bigint;
  rent?: bigint;
}

let clock = 0;
/** Records a pending trade, then its confirmed outcome with the fill (request path, or settled by reconciliation). */
async function trade(store: Store, apiKeyId: number, wallet: string, mint: string, t: Trade, settle = false) {
  const e = newExecution(apiKeyId, wallet, {
    request: { action: t.side, mint },
    createdAt: `2026-01-0${1 + Math.floor(clock / 10)}T00:00:${String(clock++ % 60).padStart(2, "0")}.000`,
  });
  await store.insertExecution(e);
  const fill = {
    sol_change_lamports: t.sol.toString(),
    fee_lamports: (t.fee ?? 5000n).toString(),
    tip_lamports: (t.tip ?? 0n).toString(),
    rent_lamports: (t.rent ?? 0n).toString(),
    trade_sol_lamports: "0",
    token_change: t.tokens.toString(),
    ...(t.after !== null ? { token_balance_after: t.after.toString() } : {}),
    token_decimals: 6,
  };
  const patch = { status: "confirmed" as const, response: { mint, signature: "S", confirmed: true, fill } };
  if (settle) {
    const [claimed] = await store.claimOpenExecutions({
      owner: "o",
      nowMs: Date.now(),
      leaseUntilMs: Date.now() + 60_000,
      updatedNotAfter: "9999",
      limit: 1,
    });
    expect(claimed?.id).toBe(e.id);
    expect(await store.settleExecution(e.id, "o", patch)).toBe(true);
  } else {
    expect((await store.updateExecution(e.id, patch))?.status).toBe("confirmed");
  }
  return e.id;
}

const strip = (ps: Awaited<ReturnType<Store["listPositions"]>>) => ps.map(({ updatedAt: _u, ...p }) => p);

describe.each(engines)("positions ledger on %s", (_name, open) => {
  it("buy, buy, partial sell, transfer in, sell all: average cost, then the rebuild agrees", async () => {
    const store = await open();
    try {
      const { id, wallet } = await account(store);
      const mint = address();
      await trade(store, id, wallet, mint, {
        side: "buy",
        sol: -1_002_044_280n,
        tokens: 1000n,
        after: 1000n,
        rent: 2_039_280n,
      });
      await trade(
        store,
        id,
        wallet,
        mint,
        { side: "buy", sol: -2_005_000n, tokens: 500n, after: 1500n },
        true,
      );
      let p = await store.findPosition(id, wallet, mint);
      expect(p?.figures.tokensHeld).toBe(1500n);
      expect(p?.figures.costBasis).toBe(1_004_049_280n);
      expect(p?.figures.costBasisFees).toBe(5000n + 2_039_280n + 5000n);
      // Sell a third: a third of the basis leaves, truncated.
      await trade(store, id, wallet, mint, { side: "sell", sol: 400_000_000n, tokens: -500n, after: 1000n });
      p = await store.findPosition(id, wallet, mint);
      const removed = (1_004_049_280n * 500n) / 1500n;
      expect(p?.figures.realizedPnl).toBe(400_000_000n - removed);
      expect(p?.figures.costBasis).toBe(1_004_049_280n - removed);
      // 200 tokens arrive outside the service before the next sell: seen from the balance, unknown basis.
      await trade(store, id, wallet, mint, { side: "sell", sol: 1_200_000_000n, tokens: -1200n, after: 0n });
      p = await store.findPosition(id, wallet, mint);
      expect(p?.status).toBe("closed");
      expect(p?.figures.tokensInOutside).toBe(200n);
      expect(p?.figures.tokensHeld).toBe(0n);
      expect(p?.figures.costBasis).toBe(0n);
      // The known 1000 tokens get 1000/1200 of the proceeds; the rest is kept out of realized PnL.
      expect(p?.figures.unknownBasisProceeds).toBe(1_200_000_000n - (1_200_000_000n * 1000n) / 1200n);
      expect(p?.closedAt).not.toBeNull();
      const events = await store.listEvents({
        apiKeyId: id,
        after: 0,
        limit: 100,
        types: ["position.updated"],
      });
      expect(events).toHaveLength(4);
      expect(events.map((e) => e.status)).toEqual(["open", "open", "open", "closed"]);
      const before = strip(await store.listPositions({ apiKeyId: id, limit: 10 }));
      const entries = await store.listPositionEntries({ apiKeyId: id });
      expect(await store.rebuildPositions(id)).toEqual({ executions: 4, fills: 4, positions: 1 });
      expect(strip(await store.listPositions({ apiKeyId: id, limit: 10 }))).toEqual(before);
      expect(await store.listPositionEntries({ apiKeyId: id })).toEqual(entries);
      // The command does the same (the store stays open: the command closes only a store it opened itself).
      const lines: string[] = [];
      const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(`err ${l}`) };
      const kept = { ...store, close: async () => {} } as Store;
      expect(await positionsRebuildCommand({}, ["--account", String(id)], io, async () => kept)).toBe(0);
      expect(lines).toEqual([`rebuilt account ${id}: 4 fills applied from 4 executions, 1 positions`]);
      expect(strip(await store.listPositions({ apiKeyId: id, limit: 10 }))).toEqual(before);
      expect(await positionsRebuildCommand({}, ["--account", "x"], io, async () => kept)).toBe(1);
      expect(lines[1]).toBe("err positions:rebuild: usage: npm run positions:rebuild [-- --account <id>]");
      // The rebuild writes no event.
      expect(
        await store.listEvents({ apiKeyId: id, after: 0, limit: 100, types: ["position.updated"] }),
      ).toHaveLength(4);
    } finally {
      await store.close();
    }
  });

  it("a fill is applied once; non-trade and unfilled outcomes move nothing", async () => {
    const store = await open();
    try {
      const { id, wallet } = await account(store);
      const mint = address();
      const eid = await trade(store, id, wallet, mint, { side: "buy", sol: -1000n, tokens: 10n, after: 10n });
      const again = {
        status: "finalized" as const,
        response: {
          mint,
          fill: {
            sol_change_lamports: "-1000",
            fee_lamports: "0",
            tip_lamports: "0",
            rent_lamports: "0",
            token_change: "10",
          },
        },
      };
      await store.updateExecution(eid, again);
      expect((await store.findPosition(id, wallet, mint))?.figures.tokensHeld).toBe(10n);
      const other = newExecution(id, wallet, { kind: "transfer", request: { action: "buy", mint } });
      await store.insertExecution(other);
      await store.updateExecution(other.id, {
        status: "confirmed",
        response: { mint, fill: again.response.fill },
      });
      expect((await store.listPositionEntries({ apiKeyId: id })).map((e) => e.executionId)).toEqual([eid]);
    } finally {
      await store.close();
    }
  });

  it("filters, wallet scope and cursor pages", async () => {
    const store = await open();
    try {
      const { id, wallet } = await account(store);
      const other = address();
      const mints = [address(), address(), address()].sort();
      for (const m of mints)
        await trade(store, id, wallet, m, { side: "buy", sol: -100n, tokens: 5n, after: 5n });
      await trade(store, id, other, mints[0]!, { side: "buy", sol: -100n, tokens: 5n, after: 5n });
      await trade(store, id, wallet, mints[2]!, { side: "sell", sol: 90n, tokens: -5n, after: 0n });
      expect(await store.listPositions({ apiKeyId: id, limit: 10 })).toHaveLength(4);
      expect(
        (await store.listPositions({ apiKeyId: id, limit: 10, status: "closed" })).map((p) => p.mint),
      ).toEqual([mints[2]]);
      expect(await store.listPositions({ apiKeyId: id, limit: 10, mint: mints[0] })).toHaveLength(2);
      expect(await store.listPositions({ apiKeyId: id, limit: 10, onlyWallets: [other] })).toHaveLength(1);
      expect(await store.listPositions({ apiKeyId: id, limit: 10, onlyWallets: [] })).toHaveLength(0);
      const first = await store.listPositions({ apiKeyId: id, limit: 2, wallet });
      const rest = await store.listPositions({ apiKeyId: id, limit: 2, wallet, after: first[1]! });
      expect([...first, ...rest].map((p) => p.mint)).toEqual(mints);
      expect(await store.listPositions({ apiKeyId: id + 1000, limit: 10 })).toHaveLength(0);
    } finally {
      await store.close();
    }
  });
});
