/**
 * `npm run bench:outside-build [-- --builds 2000]`: POST /v1/trades/build for an outside wallet on the
 * in-process sandbox (warm state on, the mint watched). Times each build through the HTTP API (inject: no
 * socket), `--concurrency N` at a time (default 1: one after the other), then reports p50/p90, builds per
 * second, the state source and the upstream calls counted over the timed builds. `--cpu-prof` of node profiles it.
 */
import { Keypair } from "@solana/web3.js";
import { startE2e } from "../test/helpers/e2e.js";
import { percentile } from "../src/chain/landing/route-stats.js";
import { freshPgDatabase } from "../test/harness/database.js";

const at = process.argv.indexOf("--builds");
const builds = at >= 0 ? Number(process.argv[at + 1]) : 2000;
const cAt = process.argv.indexOf("--concurrency");
const concurrency = cAt >= 0 ? Number(process.argv[cAt + 1]) : 1;
// `--pg URL`: the builds are kept in a fresh PostgreSQL database on that server (default: SQLite).
const pgAt = process.argv.indexOf("--pg");
const pg = pgAt >= 0 ? await freshPgDatabase(process.argv[pgAt + 1]!, "benchbuild") : undefined;
// Builds count against the executions budget (300 per minute by default): lifted here (0 = off).
const e2e = await startE2e({
  warm: true,
  env: { RATE_LIMIT_EXECUTIONS: "0", RATE_LIMIT_ACCOUNT_EXECUTIONS: "0" },
  ...(pg !== undefined ? { databaseUrl: pg.url } : {}),
});
try {
  const { apiKey } = await e2e.setup({ sol: 1n });
  const { mint } = e2e.localnet.admin.createToken();
  const res = await e2e.post(apiKey, "/v1/watch", { mints: [mint] });
  if (res.statusCode !== 200) throw new Error(res.body);
  const signer = Keypair.generate().publicKey.toBase58();
  e2e.localnet.admin.fund(signer, 1_000_000_000n);
  const body = { public_key: signer, action: "buy", mint, amount: "0.01" };
  const sources = new Map<string, number>();
  // Warm-up: the JIT and the warm state's first read.
  for (let i = 0; i < 200; i++) await e2e.post(apiKey, "/v1/trades/build", body);
  e2e.reset();
  const times: number[] = [];
  let next = 0;
  const start = performance.now();
  // `concurrency` requests in flight at once, each lane sending its next build when its last one answered.
  const lane = async (): Promise<void> => {
    while (next < builds) {
      next++;
      const t0 = performance.now();
      const r = await e2e.post(apiKey, "/v1/trades/build", body);
      times.push(performance.now() - t0);
      if (r.statusCode !== 200) throw new Error(r.body);
      const s = r.json<{ state_source: string }>().state_source;
      sources.set(s, (sources.get(s) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsed = performance.now() - start;
  const sorted = times.sort((a, b) => a - b);
  console.log(
    `POST /v1/trades/build, ${builds} builds, ${concurrency} in flight (in-process sandbox, warm state, ${pg !== undefined ? "PostgreSQL" : "SQLite"})`,
  );
  console.log(`p50 ${percentile(sorted, 50)!.toFixed(3)} ms, p90 ${percentile(sorted, 90)!.toFixed(3)} ms`);
  console.log(`builds/s: ${((builds * 1000) / elapsed).toFixed(0)}`);
  console.log(`state_source: ${JSON.stringify([...sources])}`);
  console.log(`upstream calls over the timed builds: ${JSON.stringify(e2e.roundTrips())}`);
} finally {
  await e2e.close();
  await pg?.drop();
}
