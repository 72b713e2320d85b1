/**
 * `npx tsx bench/sqlite-reads.ts [--calls 20000] [--rounds 5] [--in-flight 1]`: CPU µs per compiled-once read
 * of the request path on SQLite (the key lookup, the wallet lookup, the webhook listing), through Kysely's
 * executor (`kysely`) and through `sqliteDirectReads` (`direct`), alternating rounds on one migrated file.
 * `--in-flight N` keeps N reads pending at once (the service's 64 lanes contend for Kysely's connection mutex).
 */
import BetterSqlite3 from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { kyselyStore } from "../src/store/kysely-store.js";
import { migrationProvider } from "../src/store/migrations.js";
import { applySqlitePragmas } from "../src/store/engine/open-store.js";
import type { Database } from "../src/store/schema.js";
import { sqliteDirectReads } from "../src/store/engine/sqlite-reads.js";
import { withCachedStatements } from "../src/store/engine/sqlite-statements.js";
import type { Store } from "../src/store/types.js";
import { numberFlag } from "./flags.js";
import { runScript } from "./process-stats.js";

/** CPU µs per call of `f`, `calls` calls with `inFlight` pending at once. */
async function cpuPerCall(f: () => Promise<unknown>, calls: number, inFlight: number): Promise<number> {
  const t0 = process.cpuUsage();
  for (let i = 0; i < calls; i += inFlight) {
    const batch: Promise<unknown>[] = [];
    for (let j = 0; j < inFlight; j++) batch.push(f());
    await Promise.all(batch);
  }
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / calls;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const calls = numberFlag(argv, "calls", 20_000);
  const rounds = numberFlag(argv, "rounds", 5);
  const inFlight = numberFlag(argv, "in-flight", 1);
  const dir = mkdtempSync(join(tmpdir(), "lt-sqlite-reads-"));
  const file = new BetterSqlite3(join(dir, "db.sqlite"));
  applySqlitePragmas(file, "FULL");
  const database = withCachedStatements(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider("sqlite") }).migrateToLatest();
    if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
    const stores: Record<string, Store> = {
      kysely: kyselyStore(db, "sqlite"),
      direct: kyselyStore(
        db,
        "sqlite",
        undefined,
        {},
        undefined,
        undefined,
        sqliteDirectReads(db, database, file),
      ),
    };
    const publicKey = "So11111111111111111111111111111111111111112";
    const { apiKey } = await stores.kysely!.createApiKeyWithWallet("hash-1", {
      publicKey,
      ciphertext: "c",
      nonce: "n",
      tag: "t",
      keyId: "k",
      createdAt: new Date().toISOString(),
    });
    const reads: Record<string, (s: Store) => Promise<unknown>> = {
      key: (s) => s.findKeyByHash("hash-1"),
      wallet: (s) => s.findWallet(apiKey.id, publicKey),
      webhooks: (s) => s.listEnabledWebhooks(),
    };
    for (const [name, read] of Object.entries(reads)) {
      const figures: Record<string, number[]> = { kysely: [], direct: [] };
      // Warm-up of both paths (JIT, statement cache), then alternating rounds.
      for (const s of Object.values(stores)) await cpuPerCall(() => read(s), calls, inFlight);
      for (let r = 0; r < rounds; r++) {
        for (const [path, s] of Object.entries(stores))
          figures[path]!.push(await cpuPerCall(() => read(s), calls, inFlight));
      }
      const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" / ");
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      process.stdout.write(
        `${name} (in flight ${inFlight}): kysely ${fmt(figures.kysely!)} µs, direct ${fmt(figures.direct!)} µs; ` +
          `medians ${median(figures.kysely!).toFixed(2)} -> ${median(figures.direct!).toFixed(2)} µs\n`,
      );
    }
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

runScript(main);
