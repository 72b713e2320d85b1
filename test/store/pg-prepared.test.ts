/**
 * PostgreSQL's request-path statements as named prepared statements, and the events trigger's NOTIFY once per
 * transaction (issue 18): each distinct text is named once; a prepared `select *` survives a column added
 * under it (the call runs unnamed, the next under a new name); a group commit of several executions of one
 * key wakes a listener once; so do an order's events, each written in one statement; a session with
 * `lasertrade.events_notify=off` (a process whose wake-ups go through Redis) sends none.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Keypair } from "@solana/web3.js";
import { openStore, type Store } from "../../src/store/index.js";
import { EVENTS_CHANNEL, EVENTS_NOTIFY_SETTING } from "../../src/store/events/migrations-events.js";
import { pgPrepared } from "../../src/store/engine/pg-prepared.js";
import { keyVersionsOf } from "../../src/domain/keys/fire-custody.js";
import { newExecution, newWalletRecord } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const url = TEST_DATABASE_URL;
const schema = freshSchemaName("pgprep");

describe("pgPrepared", () => {
  it("names each distinct text once, under its prefix", async () => {
    const seen: { name?: string; text: string }[] = [];
    const pool = {
      query: (config: { name?: string; text: string }) => {
        seen.push({ ...(config.name !== undefined ? { name: config.name } : {}), text: config.text });
        return Promise.resolve({ rows: [], rowCount: 0, command: "SELECT" });
      },
    } as unknown as Pick<pg.Pool, "query">;
    const run = pgPrepared(pool, "p");
    await run("select 1", []);
    await run("select 2", []);
    await run("select 1", []);
    expect(seen).toEqual([
      { name: "p_1", text: "select 1" },
      { name: "p_2", text: "select 2" },
      { name: "p_1", text: "select 1" },
    ]);
  });
});

describe.skipIf(url === undefined)("prepared statements and NOTIFY on PostgreSQL", () => {
  let store: Store;
  let admin: pg.Client;
  beforeAll(async () => {
    store = await openStore(url!, "./data", { pgSchema: schema });
    admin = new pg.Client({ connectionString: url!, options: `-c search_path=${schema}` });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await store?.close();
    await dropSchema(url!, schema);
  });

  it("keeps answering a prepared select * after a column is added under it", async () => {
    await admin.query("create table prepared_probe (id integer primary key, a text)");
    await admin.query("insert into prepared_probe values (1, 'x')");
    const pool = new pg.Pool({ connectionString: url!, max: 1, options: `-c search_path=${schema}` });
    try {
      const run = pgPrepared(pool, "probe");
      const select = "select * from prepared_probe where id = $1";
      expect((await run(select, [1])).rows).toEqual([{ id: 1, a: "x" }]);
      await admin.query("alter table prepared_probe add column b text default 'y'");
      // The connection's prepared statement now fails with "cached plan must not change result type".
      expect((await run(select, [1])).rows).toEqual([{ id: 1, a: "x", b: "y" }]);
      expect((await run(select, [1])).rows).toEqual([{ id: 1, a: "x", b: "y" }]);
    } finally {
      await pool.end();
    }
  });

  async function newKey(): Promise<{ keyId: number; wallet: string }> {
    const wallet = Keypair.generate().publicKey.toBase58();
    const { apiKey } = await store.createApiKeyWithWallet(`h-${randomUUID()}`, newWalletRecord(wallet));
    return { keyId: apiKey.id, wallet };
  }

  /** The notifications of this schema a listener receives while `f` runs (and 300 ms after). */
  async function notified(f: () => Promise<unknown>): Promise<string[]> {
    const listener = new pg.Client({ connectionString: url! });
    await listener.connect();
    const payloads: string[] = [];
    listener.on("notification", (m) => {
      if (m.payload?.startsWith(`${schema}:`) === true) payloads.push(m.payload);
    });
    try {
      await listener.query(`listen ${EVENTS_CHANNEL}`);
      await f();
      await new Promise((r) => setTimeout(r, 300));
      return payloads;
    } finally {
      await listener.end();
    }
  }

  it("wakes a listener once for a group commit of several executions of one key", async () => {
    const k = await newKey();
    const es = Array.from({ length: 5 }, () => newExecution(k.keyId, k.wallet));
    // One event-loop turn: one batch, one transaction (pg-group-commit.ts).
    const payloads = await notified(() => Promise.all(es.map((e) => store.insertExecution(e))));
    expect(payloads).toEqual([`${schema}:${k.keyId}`]);
    const { rows } = await admin.query<{ n: string }>(
      "select count(*) as n from events where api_key_id = $1",
      [k.keyId],
    );
    expect(Number(rows[0]!.n)).toBe(5); // one event per execution, as before
  });

  it("wakes a listener for an order's events written in one statement: its creation, its fire's claim", async () => {
    const k = await newKey();
    const id = `ord_${randomUUID()}`;
    const created = await notified(() =>
      store.insertOrder(
        {
          id,
          accountId: k.keyId,
          keyId: k.keyId,
          kind: "take_profit",
          side: "sell",
          mint: "Mint1111",
          wallet: k.wallet,
          spec: "{}",
          expiresAt: null,
          peak: null,
        },
        1000,
      ),
    );
    expect(created).toEqual([`${schema}:${k.keyId}`]);
    const claim = {
      id,
      from: "open" as const,
      version: 1,
      to: "triggered" as const,
      claim: {
        owner: "p1",
        leaseUntilMs: 1_900_000_000_000,
        live: {
          keys: [k.keyId],
          versions: keyVersionsOf((await store.findKey(k.keyId, k.keyId))!),
          walletId: (await store.findWallet(k.keyId, k.wallet))!.id,
        },
      },
      triggeredBy: "take_profit",
    };
    const e = newExecution(k.keyId, k.wallet);
    // The order's event and the execution's (its trigger) in one commit: one wake-up.
    expect(await notified(() => store.claimOrderRecording(claim, e, null))).toEqual([`${schema}:${k.keyId}`]);
    const { rows } = await admin.query<{ type: string }>(
      "select type from events where api_key_id = $1 order by id",
      [k.keyId],
    );
    expect(rows.map((r) => r.type)).toEqual(["order.created", "order.triggered", "execution.pending"]);
  });

  it("sends no NOTIFY from a session with lasertrade.events_notify=off", async () => {
    const k = await newKey();
    const silent = new pg.Client({
      connectionString: url!,
      options: `-c search_path=${schema} -c ${EVENTS_NOTIFY_SETTING}=off`,
    });
    await silent.connect();
    try {
      const e = newExecution(k.keyId, k.wallet);
      const loud = newExecution(k.keyId, k.wallet);
      const insert = (c: pg.Client, id: string) =>
        c.query(
          `insert into executions (id, api_key_id, kind, wallet, wallets, signatures, status, request, created_at, updated_at)
           values ($1, $2, 'trade', $3, '[]', '[]', 'pending', '{}', 'x', 'x')`,
          [id, k.keyId, k.wallet],
        );
      expect(await notified(() => insert(silent, e.id))).toEqual([]);
      expect(await notified(() => insert(admin, loud.id))).toEqual([`${schema}:${k.keyId}`]);
    } finally {
      await silent.end();
    }
  });

  it("keeps writing executions after another process adds a column to their table", async () => {
    // One connection per pool, so the writes after the change meet the statements prepared before it.
    const own = freshSchemaName("pgprepx");
    const one = await openStore(url!, "./data", { pgSchema: own, pgPoolSize: 1 });
    const other = new pg.Client({ connectionString: url!, options: `-c search_path=${own}` });
    await other.connect();
    try {
      const wallet = Keypair.generate().publicKey.toBase58();
      const { apiKey } = await one.createApiKeyWithWallet(`h-${randomUUID()}`, newWalletRecord(wallet));
      const first = newExecution(apiKey.id, wallet);
      await one.insertExecution(first);
      await one.updateExecution(first.id, { status: "submitted" });
      // The writer's statements return whole rows: their prepared plans go stale with the new column.
      await other.query("alter table executions add column added_by_another_process text");
      const second = newExecution(apiKey.id, wallet);
      expect((await one.insertExecution(second)).id).toBe(second.id);
      expect((await one.updateExecution(second.id, { status: "submitted" }))?.status).toBe("submitted");
    } finally {
      await other.end();
      await one.close();
      await dropSchema(url!, own);
    }
  });
});
