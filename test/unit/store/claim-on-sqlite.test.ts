/**
 * A fire's claim commit on SQLite (kysely-orders claimOrderRecording) runs begin..commit synchronously on the
 * connection: at once while no transaction is open (even while another caller holds Kysely's connection
 * without one), and only after an open transaction ended, so it never lands inside another caller's
 * transaction (a rollback there takes none of the claim's rows with it).
 */
import BetterSqlite3 from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompiledQuery, Kysely, Migrator, SqliteDialect } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withCachedStatements } from "../../../src/store/engine/sqlite-statements.js";
import { migrationProvider } from "../../../src/store/migrations.js";
import { kyselyOrders } from "../../../src/store/orders/kysely-orders.js";
import type { OrderStore } from "../../../src/store/orders/order-types.js";
import type { Database } from "../../../src/store/schema.js";
import { newExecution } from "../../helpers/fixtures.js";
import { order } from "../../store/orders-fixture.js";
import { holdConnection } from "./hold-connection.js";

let dir: string;
let db: Kysely<Database>;
let orders: OrderStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "lt-claim-sqlite-"));
  const file = new BetterSqlite3(join(dir, "db.sqlite"));
  file.pragma("journal_mode = WAL");
  // The orders' key and account rows are not what this tests (better-sqlite3 turns foreign keys on).
  file.pragma("foreign_keys = OFF");
  const database = withCachedStatements(file);
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  const { error } = await new Migrator({ db, provider: migrationProvider("sqlite") }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
  orders = kyselyOrders(
    db,
    "sqlite",
    () => new Date(),
    () => undefined,
    database,
  );
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const tick = () => new Promise((r) => setTimeout(r, 20));

async function openOrder() {
  const o = await orders.insertOrder(order(1), 1000);
  const claim = {
    id: o.id,
    from: "open" as const,
    version: o.version,
    to: "triggered" as const,
    claim: { owner: "p1", leaseUntilMs: Date.now() + 60_000 },
    triggeredBy: "take_profit",
  };
  const execution = newExecution(1, "Wallet1111", { idempotencyKey: `order:${o.id}:1` });
  return { o, claim, execution };
}

/** Holds Kysely's connection (inside a transaction when `trx`) until released. */
const hold = (trx: boolean) => holdConnection(db, trx, CompiledQuery.raw("select 1"));

/** A claim of `o` started now; `settled()` tells whether it has answered yet. */
function startClaim(o: Awaited<ReturnType<typeof openOrder>>) {
  let answered = false;
  const result = orders.claimOrderRecording(o.claim, o.execution, null).then((x) => {
    answered = true;
    return x;
  });
  return { result, settled: () => answered };
}

const rows = async (table: "executions" | "events") =>
  (await db.executeQuery<{ n: number }>(CompiledQuery.raw(`select count(*) as n from ${table}`))).rows[0]!.n;

describe("a fire's claim commit on SQLite", () => {
  it("runs at once while another caller holds Kysely's connection without a transaction", async () => {
    const o = await openOrder();
    const held = hold(false);
    await tick();
    const c = startClaim(o);
    await tick();
    expect(c.settled()).toBe(true);
    expect((await c.result)?.order.state).toBe("triggered");
    held.release(true);
    await held.done;
  });

  it("waits for an open transaction to end and is not part of it when that rolls back", async () => {
    const o = await openOrder();
    const events = await rows("events");
    const held = hold(true);
    await tick();
    const c = startClaim(o);
    await tick();
    expect(c.settled()).toBe(false);
    held.release(false);
    await held.done;
    const after = await c.result;
    expect(after?.order).toMatchObject({ state: "triggered", attempt: 1, leaseOwner: "p1" });
    expect(after?.execution.id).toBe(o.execution.id);
    expect(await rows("executions")).toBe(1);
    // The claim's order.triggered and the execution's own execution.pending (a trigger's row), numbered on.
    const types = await db.executeQuery<{ id: number; type: string }>(
      CompiledQuery.raw("select id, type from events where id > ? order by id", [events]),
    );
    expect(types.rows).toEqual([
      { id: events + 1, type: "order.triggered" },
      { id: events + 2, type: "execution.pending" },
    ]);
  });

  it("a lost claim writes nothing", async () => {
    const { claim, execution } = await openOrder();
    expect(await orders.claimOrderRecording(claim, execution, null)).toBeDefined();
    const again = newExecution(1, "Wallet1111", { idempotencyKey: "order:other:1" });
    expect(await orders.claimOrderRecording(claim, again, null)).toBeUndefined();
    expect(await rows("executions")).toBe(1);
  });
});
