/**
 * PostgreSQL's batched point reads (issue 18, pg-batched-reads.ts): concurrent key and wallet lookups share
 * one round trip and answer each caller exactly what the lookup alone would (hits, misses, the same rows);
 * nothing is cached (a revocation committed before a read is seen by it); a read alone runs as before; a
 * batch whose parameters the batch form cannot carry runs its reads one at a time.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { CompiledQuery } from "kysely";
import { Keypair } from "@solana/web3.js";
import { openStore, type Store } from "../../src/store/index.js";
import { batchedSelectSql, pgBatchedReads } from "../../src/store/engine/pg-batched-reads.js";
import { newWalletRecord } from "../helpers/fixtures.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../helpers/pg.js";

const url = TEST_DATABASE_URL;
const schema = freshSchemaName("pgbatch");

describe("batchedSelectSql", () => {
  it("runs the query once per argument tuple, not pulled up into a join", () => {
    expect(batchedSelectSql(`select * from "t" where "a" = $1 and "b" = $2`, ["bigint", "text"])).toBe(
      `select q.*, p.i::integer as lasertrade_batch_index from unnest($1::bigint[], $2::text[]) ` +
        `with ordinality as p(a1, a2, i) cross join lateral (select * from "t" where "a" = p.a1 and "b" = p.a2 offset 0) as q`,
    );
  });
});

describe.skipIf(url === undefined)("batched reads on PostgreSQL", () => {
  let store: Store;
  let pool: pg.Pool;
  beforeAll(async () => {
    store = await openStore(url!, "./data", { pgSchema: schema });
    pool = new pg.Pool({ connectionString: url!, max: 2, options: `-c search_path=${schema}` });
  });
  afterAll(async () => {
    await pool?.end();
    await store?.close();
    await dropSchema(url!, schema);
  });

  async function newKey(): Promise<{ hash: string; keyId: number; wallet: string }> {
    const wallet = Keypair.generate().publicKey.toBase58();
    const hash = `h-${randomUUID()}`;
    const { apiKey } = await store.createApiKeyWithWallet(hash, newWalletRecord(wallet));
    return { hash, keyId: apiKey.id, wallet };
  }

  it("answers concurrent key and wallet lookups as the lookups alone do", async () => {
    const keys = await Promise.all([newKey(), newKey(), newKey()]);
    const alone = {
      keys: [] as unknown[],
      wallets: [] as unknown[],
    };
    for (const k of keys) {
      alone.keys.push(await store.findKeyByHash(k.hash));
      alone.wallets.push(await store.findWallet(k.keyId, k.wallet));
    }
    expect(alone.keys.every((k) => k !== undefined)).toBe(true);
    // One turn: each lookup's calls form one batch; misses (unknown hash, another key's wallet) among hits.
    const [byHash, wallets, missHash, missWallet] = await Promise.all([
      Promise.all(keys.map((k) => store.findKeyByHash(k.hash))),
      Promise.all(keys.map((k) => store.findWallet(k.keyId, k.wallet))),
      store.findKeyByHash("no-such-hash"),
      store.findWallet(keys[0]!.keyId, keys[1]!.wallet),
    ]);
    expect(byHash).toEqual(alone.keys);
    expect(wallets).toEqual(alone.wallets);
    expect(missHash).toBeUndefined();
    expect(missWallet).toBeUndefined();
  });

  it("sees a revocation committed before the read (nothing cached)", async () => {
    const k = await newKey();
    const before = await Promise.all([store.findKeyByHash(k.hash), store.findKeyByHash(k.hash)]);
    expect(before.map((r) => r?.revokedAt)).toEqual([null, null]);
    await pool.query("update api_keys set revoked_at = 'x' where id = $1", [k.keyId]);
    const after = await Promise.all([store.findKeyByHash(k.hash), store.findKeyByHash(k.hash)]);
    expect(after.map((r) => r?.revokedAt)).toEqual(["x", "x"]);
  });

  it("sends one statement for concurrent calls, the plain one for a call alone", async () => {
    const k = await newKey();
    const sent: string[] = [];
    const counting = {
      query: (config: pg.QueryConfig) => {
        sent.push(config.name ?? "");
        return pool.query(config);
      },
    } as Pick<pg.Pool, "query">;
    const run = pgBatchedReads(counting, "probe");
    const q = (hash: string) =>
      CompiledQuery.raw(`select "id", "key_hash" from "api_keys" where "key_hash" = $1`, [hash]);
    const one = await run<{ id: number }>(q(k.hash));
    expect(one.rows).toEqual([{ id: k.keyId, key_hash: k.hash }]);
    expect(sent).toEqual(["probe_1"]);
    sent.length = 0;
    const many = await Promise.all([run(q(k.hash)), run(q("none")), run(q(k.hash))]);
    expect(many.map((r) => r.rows)).toEqual([
      [{ id: k.keyId, key_hash: k.hash }],
      [],
      [{ id: k.keyId, key_hash: k.hash }],
    ]);
    expect(sent).toEqual(["probeb_1"]);
    // A parameter the batch form does not carry (a null): the calls run one at a time, same answers.
    sent.length = 0;
    const nulls = await Promise.all([run(q(k.hash)), run(CompiledQuery.raw(q("").sql, [null]))]);
    expect(nulls.map((r) => r.rows)).toEqual([[{ id: k.keyId, key_hash: k.hash }], []]);
    expect(sent).toEqual(["probe_1", "probe_1"]);
  });
});
