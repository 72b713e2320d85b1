/**
 * `npm run bench:outside-build [-- --builds 2000]`: POST /v1/trades/build for an outside wallet on the
 * in-process sandbox (warm state on, the mint watched). Times each build through the HTTP API (inject: no
 * socket) one after the other, then reports p50/p90, builds per second, the state source and the upstream calls
 * counted over the timed builds.
 */
import { Keypair } from "@solana/web3.js";
import { startE2e } from "../test/helpers/e2e.js";
import { percentile } from "../src/chain/landing/route-stats.js";

const at = process.argv.indexOf("--builds");
const builds = at >= 0 ? Number(process.argv[at + 1]) : 2000;
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
  for (let i = 0; i < 200; i++) await e2e.post(apiKey, "/v1/trades/build", body);
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
  console.log(`POST /v1/trades/build, ${builds} builds one after the other (in-process sandbox, warm state)`);
  console.log(`p50 ${percentile(sorted, 50)!.toFixed(3)} ms, p90 ${percentile(sorted, 90)!.toFixed(3)} ms`);
  console.log(`builds/s (sequential, one connection): ${((builds * 1000) / elapsed).toFixed(0)}`);
  console.log(`state_source: ${JSON.stringify([...sources])}`);
  console.log(`upstream calls over the timed builds: ${JSON.stringify(e2e.roundTrips())}`);
} finally {
  await e2e.close();
}
