/**
 * Issue 19's store half on SQLite (always) and PostgreSQL (when TEST_DATABASE_URL is set): the spend
 * reservation under concurrency from two stores ("processes") on one database, its release rules, a
 * fast-check property over executions, failures and restarts, and the append-only activity log.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import fc from "fast-check";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTwoStores } from "./two-engines.js";
import { isoNoZone, openStore, SpendCapExceededError, type Store } from "../../src/store/index.js";
import { newExecution } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const SOL = 1_000_000_000n;
let counter = 0;

async function newAccount(store: Store): Promise<{ accountId: number; wallet: string }> {
  counter += 1;
  const wallet = `Wallet${counter}x${Math.random().toString(36).slice(2, 12)}`;
  const r = await store.createApiKeyWithWallet(`hash-custody-${counter}-${Math.random()}`, {
    publicKey: wallet,
    createdAt: isoNoZone(new Date()),
    ciphertext: "Y3Q=",
    nonce: "bm9uY2U=",
    tag: "dGFn",
    keyId: "k1",
  });
  return { accountId: r.apiKey.id, wallet };
}

/** Tries to reserve `lamports` under `cap` for a new execution; its id, or null when refused. */
async function reserve(
  store: Store,
  acct: { accountId: number; wallet: string },
  lamports: bigint,
  cap: bigint,
  nowMs = Date.now(),
): Promise<string | null> {
  const e = newExecution(acct.accountId, acct.wallet);
  try {
    await store.insertExecutionReserving(e, {
      keyId: acct.accountId,
      lamports,
      capLamports: cap,
      nowMs,
      sinceMs: nowMs - 86_400_000,
    });
    return e.id;
  } catch (err) {
    if (err instanceof SpendCapExceededError) return null;
    throw err;
  }
}

interface Engine {
  name: string;
  /**
   * Whether two stores may run write transactions at once in this process. better-sqlite3 waits for a lock
   * synchronously, so two SQLite stores in one process would block each other's commit; SQLite's
   * cross-process case is covered by test/multiprocess (separate processes), here one store serves both.
   */
  twoStores: boolean;
  open: () => Promise<Store>;
  /** Runs raw SQL as the service's own database user would. */
  raw: (q: string) => Promise<void>;
  cleanup: () => Promise<void>;
}

const dir = mkdtempSync(join(tmpdir(), "custody-store-"));
const sqliteFile = join(dir, "db.sqlite");
const schema = freshSchemaName("cust");
const engines: Engine[] = [
  {
    name: "sqlite",
    twoStores: false,
    open: () => openStore(`sqlite:${sqliteFile}`, dir),
    raw: async (q) => {
      const db = new BetterSqlite3(sqliteFile);
      try {
        db.exec(q);
      } finally {
        db.close();
      }
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  },
  ...(TEST_DATABASE_URL !== undefined
    ? [
        {
          name: "postgres",
          twoStores: true,
          open: () => openStore(TEST_DATABASE_URL, dir, { pgSchema: schema, pgPoolSize: 5 }),
          raw: async (q: string) => {
            const c = new pg.Client({
              connectionString: TEST_DATABASE_URL,
              options: `-c search_path=${schema}`,
            });
            await c.connect();
            try {
              await c.query(q);
            } finally {
              await c.end();
            }
          },
          cleanup: () => dropSchema(TEST_DATABASE_URL as string, schema),
        },
      ]
    : []),
];

describe.each(engines)("custody store on $name", (engine) => {
  let a: Store;
  let b: Store;
  useTwoStores(engine, (x, y) => {
    a = x;
    b = y;
  });

  it("50 concurrent reservations from two stores on one database never pass the cap", async () => {
    const acct = await newAccount(a);
    const cap = 10n * SOL;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => reserve(i % 2 === 0 ? a : b, acct, SOL, cap)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(10);
    expect(await a.spentLamports(acct.accountId, 0)).toBe(cap);
  });

  it("releases a reservation when nothing was sent (failed before landing, expired), keeps it otherwise", async () => {
    const acct = await newAccount(a);
    const cap = 3n * SOL;
    const ids = await Promise.all([1, 2, 3].map(() => reserve(a, acct, SOL, cap)));
    expect(await reserve(b, acct, SOL, cap)).toBeNull();
    await a.updateExecution(ids[0] as string, { status: "failed", confirmationStatus: null });
    await a.updateExecution(ids[1] as string, { status: "failed", confirmationStatus: "confirmed" });
    expect(await a.spentLamports(acct.accountId, 0)).toBe(2n * SOL);
    await a.updateExecution(ids[2] as string, { status: "expired" });
    expect(await b.spentLamports(acct.accountId, 0)).toBe(SOL);
    // Outside the window nothing counts.
    expect(await b.spentLamports(acct.accountId, Date.now() + 1000)).toBe(0n);
  });

  it("property: no sequence of concurrent executions, failures and restarts ends above the cap", async () => {
    const op = fc.oneof(
      fc.record({
        t: fc.constant("exec" as const),
        n: fc.integer({ min: 1, max: 8 }),
        sol: fc.integer({ min: 1, max: 4 }),
      }),
      fc.record({ t: fc.constant("fail" as const), pick: fc.nat() }),
      fc.record({ t: fc.constant("land" as const), pick: fc.nat() }),
      fc.record({ t: fc.constant("restart" as const) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 12 }),
        async (ops, capSol) => {
          const acct = await newAccount(a);
          const cap = BigInt(capSol) * SOL;
          // The model: each recorded execution's lamports and whether it still counts.
          const live: { id: string; lamports: bigint; counts: boolean; settled: boolean }[] = [];
          for (const o of ops) {
            if (o.t === "exec") {
              const lamports = BigInt(o.sol) * (SOL / 4n);
              const got = await Promise.all(
                Array.from({ length: o.n }, (_, i) => reserve(i % 2 === 0 ? a : b, acct, lamports, cap)),
              );
              for (const id of got)
                if (id !== null) live.push({ id, lamports, counts: true, settled: false });
            } else if (o.t === "fail" || o.t === "land") {
              // Only an execution still in flight gets an outcome (once).
              const open = live.filter((e) => !e.settled);
              const x = open[o.pick % Math.max(1, open.length)];
              if (x === undefined) continue;
              x.settled = true;
              await b.updateExecution(x.id, {
                status: "failed",
                confirmationStatus: o.t === "fail" ? null : "confirmed",
              });
              if (o.t === "fail") x.counts = false;
            } else {
              // A restart: both "processes" close their connections and open again. They reopen even when a
              // close fails, so that failure is the one reported, not a closed store in every later run.
              try {
                await a.close();
                if (b !== a) await b.close();
              } finally {
                a = await engine.open();
                b = engine.twoStores ? await engine.open() : a;
              }
            }
            const used = await a.spentLamports(acct.accountId, 0);
            const modelled = live.filter((x) => x.counts).reduce((s, x) => s + x.lamports, 0n);
            expect(used).toBe(modelled);
            expect(used <= cap).toBe(true);
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 240_000);

  it("the activity log is append-only: UPDATE and DELETE fail in the database itself", async () => {
    const acct = await newAccount(a);
    await a.insertActivity({
      accountId: acct.accountId,
      at: new Date().toISOString(),
      keyId: acct.accountId,
      keyName: "root",
      method: "POST",
      route: "/v1/keys",
      wallets: [],
      executionId: null,
      status: 201,
      rule: null,
      ip: "127.0.0.1",
    });
    const rows = await b.listActivity({ accountId: acct.accountId, limit: 10 });
    expect(rows).toHaveLength(1);
    await expect(
      engine.raw(`update activity_log set status = 200 where account_id = ${acct.accountId}`),
    ).rejects.toThrow(/append-only/);
    await expect(engine.raw(`delete from activity_log where account_id = ${acct.accountId}`)).rejects.toThrow(
      /append-only/,
    );
    expect(await b.listActivity({ accountId: acct.accountId, limit: 10 })).toEqual(rows);
  });
});
