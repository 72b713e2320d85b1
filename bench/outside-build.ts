/**
 * `npm run bench:outside-build [-- --builds 2000]`: POST /v1/trades/build for an outside wallet on the
 * in-process sandbox (warm state on, the mint watched). Times each build through the HTTP API (inject: no
 * socket) one after the other, then reports p50/p90, builds per second, the state source and the upstream calls
 * counted over the timed builds. `measureOutsideBuild` is also the landing scenario's build figure.
 */
import { Keypair } from "@solana/web3.js";
import { startE2e } from "../test/helpers/e2e.js";
import { percentile } from "../src/chain/landing/route-stats.js";

/** The outside-build figures of one run. */
export interface OutsideBuildResult {
  builds: number;
  p50: number;
  p90: number;
  perSecond: number;
  sources: Map<string, number>;
  calls: unknown;
}

/** Times `builds` sequential builds (after `warmup` untimed ones) on a fresh in-process sandbox. */
export async function measureOutsideBuild(builds: number, warmup = 200): Promise<OutsideBuildResult> {
  // Builds count against the executions budget (300 per minute by default): lifted here (0 = off).
  const e2e = await startE2e({
    warm: true,
    env: { RATE_LIMIT_EXECUTIONS: "0", RATE_LIMIT_ACCOUNT_EXECUTIONS: "0" },
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
    for (let i = 0; i < warmup; i++) await e2e.post(apiKey, "/v1/trades/build", body);
    e2e.reset();
    const times: number[] = [];
    const start = performance.now();
    for (let i = 0; i < builds; i++) {
      const t0 = performance.now();
      const r = await e2e.post(apiKey, "/v1/trades/build", body);
      times.push(performance.now() - t0);
      if (r.statusCode !== 200) throw new Error(r.body);
      const s = r.json<{ state_source: string }>().state_source;
      sources.set(s, (sources.get(s) ?? 0) + 1);
    }
    const elapsed = performance.now() - start;
    const sorted = times.sort((a, b) => a - b);
    return {
      builds,
      p50: percentile(sorted, 50)!,
      p90: percentile(sorted, 90)!,
      perSecond: (builds * 1000) / elapsed,
      sources,
      calls: e2e.roundTrips(),
    };
  } finally {
    await e2e.close();
  }
}

/** The outside-build figures as lines. */
export function renderOutsideBuild(r: OutsideBuildResult): string {
  return [
    `POST /v1/trades/build, ${r.builds} builds one after the other (in-process sandbox, warm state)`,
    `p50 ${r.p50.toFixed(3)} ms, p90 ${r.p90.toFixed(3)} ms`,
    `builds/s (sequential, one connection): ${r.perSecond.toFixed(0)}`,
    `state_source: ${JSON.stringify([...r.sources])}`,
    `upstream calls over the timed builds: ${JSON.stringify(r.calls)}`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("bench/outside-build.ts")) {
  const at = process.argv.indexOf("--builds");
  const builds = at >= 0 ? Number(process.argv[at + 1]) : 2000;
  console.log(renderOutsideBuild(await measureOutsideBuild(builds)));
}
