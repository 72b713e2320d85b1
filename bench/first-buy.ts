/**
 * `npm run bench:first-buy [-- --rounds 40]`: the sniper's trade on the in-process sandbox (app + localnet,
 * warm state on). Each round creates a token, watches it (POST /v1/watch), then times, end to end through the
 * HTTP API, the first buy of the mint (warm first buy: no read) and a repeat buy of it once fully warm. Prints
 * p50/p90 of both, their ratio, and the upstream calls counted at the first buy's answer.
 */
import { startE2e, trade } from "../test/helpers/e2e.js";
import { until } from "../test/helpers/warm.js";
import { percentile } from "../src/chain/landing/route-stats.js";

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1] || 40);
const FAST = { simulate: false, confirm: false } as const;
const e2e = await startE2e({ warm: true });
try {
  const { apiKey } = await e2e.setup({ sol: 1000n });
  const first: number[] = [];
  const repeat: number[] = [];
  const calls = new Map<string, number>();
  for (let i = 0; i < rounds; i++) {
    const { mint } = e2e.localnet.admin.createToken();
    const res = await e2e.post(apiKey, "/v1/watch", { mints: [mint] });
    if (res.statusCode !== 200) throw new Error(res.body);
    e2e.reset();
    let t0 = performance.now();
    const a = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01", ...FAST });
    first.push(performance.now() - t0);
    const counted = JSON.stringify(e2e.roundTrips());
    calls.set(counted, (calls.get(counted) ?? 0) + 1);
    if (a.state_source !== "cache") throw new Error(`first buy read: ${a.state_source}`);
    // Wait until the wallet's accounts of the mint are subscribed, so the repeat is a full cache hit.
    await until(async () => {
      const b = await trade(e2e, apiKey, { action: "buy", mint, amount: "0.001", ...FAST });
      return b.state_source === "cache";
    }, "warm repeat");
    t0 = performance.now();
    await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01", ...FAST });
    repeat.push(performance.now() - t0);
  }
  const f = first.sort((x, y) => x - y);
  const r = repeat.sort((x, y) => x - y);
  const ms = (v: number | null) => (v === null ? "-" : v.toFixed(2));
  console.log(`first buy after POST /v1/watch vs repeat warm buy, ${rounds} rounds (in-process sandbox)`);
  console.log("| buy | p50 ms | p90 ms |\n|---|---|---|");
  console.log(`| first after watch | ${ms(percentile(f, 50))} | ${ms(percentile(f, 90))} |`);
  console.log(`| repeat, fully warm | ${ms(percentile(r, 50))} | ${ms(percentile(r, 90))} |`);
  console.log(`p50 ratio first / repeat: ${(percentile(f, 50)! / percentile(r, 50)!).toFixed(3)}`);
  console.log(`upstream calls at the first buy's answer: ${JSON.stringify([...calls])}`);
} finally {
  await e2e.close();
}
