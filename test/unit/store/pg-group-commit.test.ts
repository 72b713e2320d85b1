/**
 * keyedBatcher (PostgreSQL's group commit, issue 18): writes of one key queued in one event-loop turn, or while
 * that key's batch runs, form one batch; keys never share a batch; one batch per key at a time; a failed batch
 * runs its writes alone, so a failing write fails only its caller. pgBatchedInserts: single-row inserts of one
 * statement become one multi-row insert; anything else runs as it is.
 */
import { CompiledQuery } from "kysely";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { keyedBatcher, pgBatchedInserts } from "../../../src/store/executions/pg-group-commit.js";

type W = { key: number; v: string };

/** A batcher whose batches and lone writes are recorded; `fail` names values whose write throws. */
function recording(fail: string[] = [], hold?: Promise<void>) {
  const batches: string[][] = [];
  const alone: string[] = [];
  let running = 0;
  let maxRunningPerKey = 0;
  const runningKeys = new Map<number, number>();
  const enter = (key: number) => {
    running += 1;
    runningKeys.set(key, (runningKeys.get(key) ?? 0) + 1);
    maxRunningPerKey = Math.max(maxRunningPerKey, runningKeys.get(key)!);
  };
  const leave = (key: number) => {
    running -= 1;
    runningKeys.set(key, runningKeys.get(key)! - 1);
  };
  const write = keyedBatcher<W, string>({
    groupOf: (w) => w.key,
    maxBatch: 4,
    async many(items) {
      enter(items[0]!.key);
      batches.push(items.map((w) => w.v));
      await hold;
      leave(items[0]!.key);
      if (items.some((w) => fail.includes(w.v))) throw new Error("batch failed");
      return items.map((w) => `ok ${w.v}`);
    },
    async one(w) {
      enter(w.key);
      alone.push(w.v);
      await hold;
      leave(w.key);
      if (fail.includes(w.v)) throw new Error(`failed ${w.v}`);
      return `ok ${w.v}`;
    },
  });
  return { write, batches, alone, stats: () => ({ running, maxRunningPerKey }) };
}

describe("keyedBatcher", () => {
  it("batches one turn's writes per key and answers each with its own result", async () => {
    const r = recording();
    const out = await Promise.all([
      r.write({ key: 1, v: "a" }),
      r.write({ key: 2, v: "x" }),
      r.write({ key: 1, v: "b" }),
      r.write({ key: 1, v: "c" }),
    ]);
    expect(out).toEqual(["ok a", "ok x", "ok b", "ok c"]);
    expect(r.batches).toEqual([["a", "b", "c"]]);
    // A batch of one runs alone (the plain statement).
    expect(r.alone).toEqual(["x"]);
  });

  it("runs one batch per key at a time: writes arriving meanwhile form the next batch", async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const r = recording([], hold);
    const first = [r.write({ key: 1, v: "a" }), r.write({ key: 1, v: "b" })];
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.batches).toEqual([["a", "b"]]);
    const second = [r.write({ key: 1, v: "c" }), r.write({ key: 1, v: "d" })];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(r.batches).toEqual([["a", "b"]]); // c and d wait for the running batch
    release();
    expect(await Promise.all([...first, ...second])).toEqual(["ok a", "ok b", "ok c", "ok d"]);
    expect(r.batches).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(r.stats().maxRunningPerKey).toBe(1);
  });

  it("a key whose batches have drained starts afresh: its next turn's writes form a new batch", async () => {
    const r = recording();
    expect(await Promise.all([r.write({ key: 1, v: "a" }), r.write({ key: 1, v: "b" })])).toEqual([
      "ok a",
      "ok b",
    ]);
    expect(await Promise.all([r.write({ key: 1, v: "c" }), r.write({ key: 1, v: "d" })])).toEqual([
      "ok c",
      "ok d",
    ]);
    expect(r.batches).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(r.alone).toEqual([]);
  });

  it("caps a batch at maxBatch; the rest runs next", async () => {
    const r = recording();
    await Promise.all(["a", "b", "c", "d", "e", "f"].map((v) => r.write({ key: 7, v })));
    expect(r.batches).toEqual([
      ["a", "b", "c", "d"],
      ["e", "f"],
    ]);
  });

  it("a failed batch runs its writes one at a time, in order: only the failing write fails", async () => {
    const r = recording(["b"]);
    const out = await Promise.allSettled(["a", "b", "c"].map((v) => r.write({ key: 1, v })));
    expect(out.map((o) => (o.status === "fulfilled" ? o.value : (o.reason as Error).message))).toEqual([
      "ok a",
      "failed b",
      "ok c",
    ]);
    expect(r.batches).toEqual([["a", "b", "c"]]);
    expect(r.alone).toEqual(["a", "b", "c"]);
  });
});

describe("keyedBatcher lanes", () => {
  it("runs up to lanesOf(group) batches of one group at once; arrivals while all run wait for the next", async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    let running = 0;
    let most = 0;
    const batches: string[][] = [];
    const track = async (vs: string[]): Promise<string[]> => {
      batches.push(vs);
      running += 1;
      most = Math.max(most, running);
      await hold;
      running -= 1;
      return vs.map((v) => `ok ${v}`);
    };
    const write = keyedBatcher<W, string>({
      groupOf: (w) => w.key,
      lanesOf: () => 2,
      many: (items) => track(items.map((w) => w.v)),
      one: async (w) => (await track([w.v]))[0]!,
    });
    const turn = () => new Promise((r) => setImmediate(r));
    const all = [write({ key: 1, v: "a" }), write({ key: 1, v: "b" })];
    await turn();
    all.push(write({ key: 1, v: "c" }));
    await turn();
    // Both lanes busy: d and e wait, then go together.
    all.push(write({ key: 1, v: "d" }), write({ key: 1, v: "e" }));
    await turn();
    expect(batches).toEqual([["a", "b"], ["c"]]);
    release();
    expect(await Promise.all(all)).toEqual(["ok a", "ok b", "ok c", "ok d", "ok e"]);
    expect(batches).toEqual([["a", "b"], ["c"], ["d", "e"]]);
    expect(most).toBe(2);
  });
});

describe("pgBatchedInserts", () => {
  /** A pool stand-in that records the statements it runs. */
  function pool(sqls: { text: string; values: unknown[] }[]) {
    return {
      // A write alone comes as a named statement's config (pg-prepared.ts), a batch as text and values.
      query: (text: string | { text: string; values: unknown[] }, values?: unknown[]) => {
        sqls.push(
          typeof text === "string" ? { text, values: values! } : { text: text.text, values: text.values },
        );
        return Promise.resolve({ rows: [], rowCount: 1 });
      },
    } as unknown as Pick<pg.Pool, "query">;
  }

  it("turns one turn's single-row inserts of one statement into one multi-row insert", async () => {
    const sqls: { text: string; values: unknown[] }[] = [];
    const run = pgBatchedInserts(pool(sqls));
    const ins = (a: number, b: string) =>
      CompiledQuery.raw(`insert into "t" ("a", "b") values ($1, $2)`, [a, b]);
    await Promise.all([run(ins(1, "x")), run(ins(2, "y")), run(ins(3, "z"))]);
    expect(sqls).toEqual([
      {
        text: `insert into "t" ("a", "b") values ($1, $2), ($3, $4), ($5, $6)`,
        values: [1, "x", 2, "y", 3, "z"],
      },
    ]);
  });

  it("keeps an upsert's on conflict clause after the rows (the outside builds' insert)", async () => {
    const sqls: { text: string; values: unknown[] }[] = [];
    const run = pgBatchedInserts(pool(sqls));
    const clause = ` on conflict ("a") do update set "b" = excluded."b" where "t"."c" is null`;
    const up = (a: number, b: string) =>
      CompiledQuery.raw(`insert into "t" ("a", "b") values ($1, $2)${clause}`, [a, b]);
    await Promise.all([run(up(1, "x")), run(up(2, "y"))]);
    expect(sqls).toEqual([
      { text: `insert into "t" ("a", "b") values ($1, $2), ($3, $4)${clause}`, values: [1, "x", 2, "y"] },
    ]);
  });

  it("runs anything else as it is", async () => {
    const sqls: { text: string; values: unknown[] }[] = [];
    const run = pgBatchedInserts(pool(sqls));
    const q = CompiledQuery.raw(`insert into "t" ("a") values ($1) returning *`, [1]);
    const s = CompiledQuery.raw(`select 1`, []);
    await Promise.all([run(q), run(q), run(s)]);
    expect(sqls.map((x) => x.text)).toEqual([
      `insert into "t" ("a") values ($1) returning *`,
      `insert into "t" ("a") values ($1) returning *`,
      `select 1`,
    ]);
  });
});
