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
> & {
  /** On-CPU nanoseconds of each backend connected to this database (the reading connection left out). */
  backends: Map<number, number>;
  /** Per table: sequential scans and the rows they read (pg_stat_user_tables). */
  seqRead: Map<string, readonly [number, number]>;
};

/** On-CPU nanoseconds of each of these processes (a process that has exited is left out). */
function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      out.set(pid, Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]));
    } catch {
      // exited
    }
  }
  return out;
}

/**
 * CPU of this database's own backends between two reads (the ones present in both: a pool keeps its
 * connections), in nanoseconds: what the bench's statements cost the server, without other databases' load.
 */
export function backendCpuNs(before: PgCounters, after: PgCounters): number {
  let ns = 0;
  for (const [pid, t] of after.backends) {
    const t0 = before.backends.get(pid);
    if (t0 !== undefined) ns += t - t0;
  }
  return ns;
}

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
    const pids = await c.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    const backends = cpuOf(pids.rows.map((p) => p.pid));
    const tables = await c.query<{ name: string; seq: string; read: string }>(
      "select relname as name, seq_scan as seq, seq_tup_read as read from pg_stat_user_tables",
    );
    const seqRead = new Map(tables.rows.map((t) => [t.name, [Number(t.seq), Number(t.read)] as const]));
    const [serverCpuNs, serverWaitNs] = serverSchedstat();
    return {
      backends,
      seqRead,
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
  const backends = cpuOf([...before.backends.keys()]);
  // The statistics collector reports a backend's counters when it goes idle, at most once a second.
  await new Promise((r) => setTimeout(r, 1_500));
  const after = { ...(await readPgCounters(url)), serverCpuNs, serverWaitNs, atNs, backends };
  const per = (k: Exclude<keyof PgCounters, "backends" | "seqRead">, own = 0) =>
    ((after[k] - before[k] - own) / Math.max(1, trades)).toFixed(2);
  const wall = after.atNs - before.atNs;
  const share = (k: "serverCpuNs" | "serverWaitNs") => ((after[k] - before[k]) / wall).toFixed(2);
  const scans = [...after.seqRead]
    .map(([t, [n, rows]]) => {
      const [n0, rows0] = before.seqRead.get(t) ?? [0, 0];
      return { t, n: n - n0, rows: rows - rows0 };
    })
    .filter((x) => x.n > 0)
    .map(
      (x) =>
        `${x.t} ${(x.n / Math.max(1, trades)).toFixed(2)} (${(x.rows / Math.max(1, trades)).toFixed(1)} rows)`,
    );
  return (
    `PostgreSQL per trade: sequential scans ${scans.length > 0 ? scans.join(", ") : "none"}; commits ${per("commits", 2)}, rollbacks ${per("rollbacks")}, ` +
    `rows inserted ${per("inserted")}, updated ${per("updated")}, fetched ${per("fetched")}; ` +
    `this database's ${after.backends.size} backends ${(backendCpuNs(before, after) / 1e6 / Math.max(1, trades)).toFixed(3)} ms CPU per trade; ` +
    `server processes (all databases): cores busy ${share("serverCpuNs")}, ` +
    `cores' worth waiting for a CPU ${share("serverWaitNs")}`
  );
}
