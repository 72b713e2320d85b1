/**
 * `npm run bench:outside-build [-- --builds 2000 --concurrency 8 --pg URL]`: POST /v1/trades/build for an
 * outside wallet on the in-process sandbox (warm state on, the mint watched). Times each build through the HTTP
 * API (inject: no socket), `--concurrency N` at a time (default 1: one after the other), then reports p50/p90,
 * builds per second, the state source and the upstream calls counted over the timed builds. `--raced`: raced
 * builds (`routes: "all"`, one variant per localnet route under the wallet's nonce). `--cpu-prof` of node
 * profiles it. `measureOutsideBuild` is also the landing scenario's build figure.
 */
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { startE2e, type E2e } from "../test/helpers/e2e.js";
import { percentile, RouteStats } from "../src/chain/landing/route-stats.js";
import { freshPgDatabase } from "../test/harness/database.js";
import { numberFlag, optionalFlag } from "./flags.js";

/** The outside-build figures of one run. */
export interface OutsideBuildResult {
  builds: number;
  concurrency: number;
  engine: "SQLite" | "PostgreSQL";
  raced: boolean;
  p50: number;
  p90: number;
  perSecond: number;
  sources: Map<string, number>;
  calls: unknown;
}

/** How one run is made. */
export interface OutsideBuildOptions {
  warmup?: number;
  /** Requests in flight at once (default 1). */
  concurrency?: number;
  /** A PostgreSQL server URL: the builds are kept in a fresh database on it (default SQLite). */
  pgUrl?: string;
  /** Raced builds over the localnet's four routes, under the outside wallet's nonce (created first). */
  raced?: boolean;
}

/** Creates `signer`'s nonce account from the service's build, signed here and sent to the localnet. */
async function createNonce(e2e: E2e, apiKey: string, signer: Keypair): Promise<void> {
  const res = await e2e.post(apiKey, "/v1/nonce-accounts/build", { public_key: signer.publicKey.toBase58() });
  if (res.statusCode !== 200) throw new Error(res.body);
  const tx = VersionedTransaction.deserialize(
    Buffer.from(res.json<{ transaction: string }>().transaction, "base64"),
  );
  tx.sign([signer]);
  const sig = await e2e.connection.sendRawTransaction(tx.serialize());
  for (let i = 0; i < 400; i++) {
    if ((await e2e.connection.getSignatureStatuses([sig])).value[0] !== null) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  e2e.localnet.admin.advanceSlots(2);
}

/** Times `builds` builds (after `warmup` untimed ones) on a fresh in-process sandbox. */
export async function measureOutsideBuild(
  builds: number,
  options: OutsideBuildOptions = {},
): Promise<OutsideBuildResult> {
  const concurrency = options.concurrency ?? 1;
  const pg = options.pgUrl !== undefined ? await freshPgDatabase(options.pgUrl, "benchbuild") : undefined;
  // Builds count against the executions budget (300 per minute by default): lifted here (0 = off).
  const e2e = await startE2e({
    warm: true,
    env: { RATE_LIMIT_EXECUTIONS: "0", RATE_LIMIT_ACCOUNT_EXECUTIONS: "0" },
    ...(pg !== undefined ? { databaseUrl: pg.url } : {}),
    ...(options.raced === true ? { routes: { stats: new RouteStats() } } : {}),
  });
  try {
    const { apiKey } = await e2e.setup({ sol: 1n });
    const { mint } = e2e.localnet.admin.createToken();
    const res = await e2e.post(apiKey, "/v1/watch", { mints: [mint] });
    if (res.statusCode !== 200) throw new Error(res.body);
    const keypair = Keypair.generate();
    const signer = keypair.publicKey.toBase58();
    e2e.localnet.admin.fund(signer, 1_000_000_000n);
    if (options.raced === true) await createNonce(e2e, apiKey, keypair);
    const body = {
      public_key: signer,
      action: "buy",
      mint,
      amount: "0.01",
      ...(options.raced === true ? { routes: "all" } : {}),
    };
    const sources = new Map<string, number>();
    // Warm-up: the JIT and the warm state's first read.
    for (let i = 0; i < (options.warmup ?? 200); i++) await e2e.post(apiKey, "/v1/trades/build", body);
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
    return {
      builds,
      concurrency,
      engine: pg !== undefined ? "PostgreSQL" : "SQLite",
      raced: options.raced === true,
      p50: percentile(sorted, 50)!,
      p90: percentile(sorted, 90)!,
      perSecond: (builds * 1000) / elapsed,
      sources,
      calls: e2e.roundTrips(),
    };
  } finally {
    await e2e.close();
    await pg?.drop();
  }
}

/** The outside-build figures as lines. */
export function renderOutsideBuild(r: OutsideBuildResult): string {
  return [
    `POST /v1/trades/build${r.raced ? " raced (4 routes, one variant each)" : ""}, ${r.builds} builds, ${r.concurrency} in flight (in-process sandbox, warm state, ${r.engine})`,
    `p50 ${r.p50.toFixed(3)} ms, p90 ${r.p90.toFixed(3)} ms`,
    `builds/s: ${r.perSecond.toFixed(0)}`,
    `state_source: ${JSON.stringify([...r.sources])}`,
    `upstream calls over the timed builds: ${JSON.stringify(r.calls)}`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("bench/outside-build.ts")) {
  const builds = numberFlag(process.argv, "builds", 2000);
  const concurrency = numberFlag(process.argv, "concurrency", 1);
  const pgUrl = optionalFlag(process.argv, "pg");
  const result = await measureOutsideBuild(builds, {
    concurrency,
    ...(pgUrl !== undefined ? { pgUrl } : {}),
    ...(process.argv.includes("--raced") ? { raced: true } : {}),
  });
  console.log(renderOutsideBuild(result));
}
