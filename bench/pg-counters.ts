/**
 * Per-trade database work on PostgreSQL, from the server's own statistics of the bench's (fresh) database:
 * transactions committed (each statement outside an explicit transaction is one), rows inserted, updated
 * and fetched. The counters are read from `pg_stat_database`, which the server updates a little after each
 * transaction ends, hence the pause before the final read.
 */
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";

/** Counters of one database at one moment, and the CPU of the server's processes on this machine. */
export type PgCounters = Record<
  "commits" | "rollbacks" | "inserted" | "updated" | "fetched" | "serverCpuNs" | "serverWaitNs" | "atNs",
  number
>;

/**
 * On-CPU and run-queue-wait nanoseconds summed over this machine's `postgres` processes (every database's:
 * other users of the server are counted too), from /proc/<pid>/schedstat. Backends that exit during the
 * window take their time with them, so this is a lower bound; the pool keeps its connections, so it is close.
 */
function serverSchedstat(): [number, number] {
  let run = 0;
  let wait = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "postgres") continue;
      const [r, w] = readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ").map(Number);
      run += r ?? 0;
      wait += w ?? 0;
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return [run, wait];
}

/** Reads the counters of the database `url` names. */
export async function readPgCounters(url: string): Promise<PgCounters> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query("select pg_stat_clear_snapshot()");
    const { rows } = await c.query<Record<string, string>>(
      `select xact_commit as commits, xact_rollback as rollbacks, tup_inserted as inserted,
              tup_updated as updated, tup_fetched as fetched
         from pg_stat_database where datname = current_database()`,
    );
    const r = rows[0] ?? {};
    const [serverCpuNs, serverWaitNs] = serverSchedstat();
    return {
      serverCpuNs,
      serverWaitNs,
      atNs: Number(process.hrtime.bigint()),
      commits: Number(r.commits),
      rollbacks: Number(r.rollbacks),
      inserted: Number(r.inserted),
      updated: Number(r.updated),
      fetched: Number(r.fetched),
    };
  } finally {
    await c.end();
  }
}

/** `after - before` per trade, one line (the reading connections' own commits subtracted). */
export async function formatPgPerTrade(url: string, before: PgCounters, trades: number): Promise<string> {
  const [serverCpuNs, serverWaitNs] = serverSchedstat();
  const atNs = Number(process.hrtime.bigint());
  // The statistics collector reports a backend's counters when it goes idle, at most once a second.
  await new Promise((r) => setTimeout(r, 1_500));
  const after = { ...(await readPgCounters(url)), serverCpuNs, serverWaitNs, atNs };
  const per = (k: keyof PgCounters, own = 0) =>
    ((after[k] - before[k] - own) / Math.max(1, trades)).toFixed(2);
  const wall = after.atNs - before.atNs;
  const share = (k: "serverCpuNs" | "serverWaitNs") => ((after[k] - before[k]) / wall).toFixed(2);
  return (
    `PostgreSQL per trade: commits ${per("commits", 2)}, rollbacks ${per("rollbacks")}, ` +
    `rows inserted ${per("inserted")}, updated ${per("updated")}, fetched ${per("fetched")}; ` +
    `server processes (all databases): cores busy ${share("serverCpuNs")}, ` +
    `cores' worth waiting for a CPU ${share("serverWaitNs")}`
  );
}
