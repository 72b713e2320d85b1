/**
 * The state-churn scenario (issue 18): 200 mints watched and traded at once, every trade landing (so curves
 * change under the cache). Reports the warm-state hit rate and how old, in slots, the state of each cached
 * quote was when its answer came back (the localnet's slot, read from its admin route, against `state_slot`).
 */
import { percentile, type LocalnetClient } from "../test/harness/index.js";
import { apiClient, type Target } from "./load.js";

/** The churn scenario's figures. */
export interface ChurnResult {
  mints: number;
  lanes: number;
  trades: number;
  errors: number;
  tradesPerSecond: number;
  /** Cached quotes over all answered trades, and over repeat trades (a wallet's second+ trade of a mint). */
  hitRate: number;
  repeatHitRate: number;
  stalenessP50: number;
  stalenessP99: number;
  stalenessMax: number;
  /** Cached quotes whose state was older than `maxAgeSlots` at answer time. */
  overBound: number;
  maxAgeSlots: number;
}

async function currentSlot(adminUrl: string): Promise<number> {
  const res = await fetch(`${adminUrl}/slots`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ n: 0 }),
  });
  return ((await res.json()) as { slot: number }).slot;
}

/** Creates and watches `mints` tokens, then each lane trades its share of them round-robin for `durationMs`. */
export async function runChurn(
  target: Target,
  apiKey: string,
  localnet: Pick<LocalnetClient, "createToken" | "info">,
  o: { mints: number; lanes: string[]; durationMs: number; maxAgeSlots: number },
): Promise<ChurnResult> {
  const mints: string[] = [];
  for (let i = 0; i < o.mints; i++) mints.push((await localnet.createToken()).mint);
  const post = apiClient(target.baseUrl, apiKey, o.lanes.length + 4);
  for (let i = 0; i < mints.length; i += 100) {
    const r = await post<{ watched?: string[]; detail?: string }>("/v1/watch", {
      mints: mints.slice(i, i + 100),
    });
    if (r.status !== 200) throw new Error(`watch: ${r.status} ${r.body.detail}`);
  }
  // The localnet's slot, kept current in the background (its admin route has no injected latency).
  let slot = await currentSlot(localnet.info.adminUrl);
  let polling = true;
  const poller = (async () => {
    while (polling) {
      slot = await currentSlot(localnet.info.adminUrl).catch(() => slot);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  // Each lane trades its own share of the mints; a first, unmeasured pass subscribes its token accounts
  // (a wallet's first trade of a mint reads), so the measured trades are the repeat trades of a live bot.
  const share = (lane: number) => mints.filter((_, i) => i % o.lanes.length === lane);
  await Promise.all(
    o.lanes.map(async (wallet, lane) => {
      for (const mint of share(lane)) {
        await post("/v1/trades/execute", {
          action: "buy",
          mint,
          amount: "0.001",
          wallet,
          simulate: false,
          confirm: false,
        });
      }
    }),
  );
  const seen = new Set<string>(o.lanes.flatMap((w, lane) => share(lane).map((m) => `${w}:${m}`)));
  const staleness: number[] = [];
  let trades = 0;
  let errors = 0;
  let cached = 0;
  let repeats = 0;
  let repeatCached = 0;
  let next = 0;
  const t0 = performance.now();
  const deadline = t0 + o.durationMs;
  await Promise.all(
    o.lanes.map(async (wallet, lane) => {
      const mine = share(lane);
      while (performance.now() < deadline) {
        const mint = mine[next++ % mine.length]!;
        const pair = `${wallet}:${mint}`;
        const repeat = seen.has(pair);
        seen.add(pair);
        const r = await post<{ state_source?: string; state_slot?: number; detail?: string }>(
          "/v1/trades/execute",
          {
            action: "buy",
            mint,
            amount: "0.001",
            wallet,
            simulate: false,
            confirm: false,
          },
        );
        trades++;
        if (r.status !== 200) {
          errors++;
          continue;
        }
        if (repeat) repeats++;
        if (r.body.state_source !== "cache") continue;
        cached++;
        if (repeat) repeatCached++;
        staleness.push(Math.max(0, slot - (r.body.state_slot ?? 0)));
      }
    }),
  );
  const wallMs = performance.now() - t0;
  polling = false;
  await poller;
  const sorted = staleness.sort((a, b) => a - b);
  const answered = trades - errors;
  return {
    mints: mints.length,
    lanes: o.lanes.length,
    trades,
    errors,
    tradesPerSecond: (trades / wallMs) * 1000,
    hitRate: cached / Math.max(1, answered),
    repeatHitRate: repeatCached / Math.max(1, repeats),
    stalenessP50: sorted.length ? percentile(sorted, 50) : NaN,
    stalenessP99: sorted.length ? percentile(sorted, 99) : NaN,
    stalenessMax: sorted.length ? sorted[sorted.length - 1]! : NaN,
    overBound: sorted.filter((s) => s > o.maxAgeSlots).length,
    maxAgeSlots: o.maxAgeSlots,
  };
}

/** The churn result as a markdown section. */
export function renderChurn(c: ChurnResult | null): string[] {
  if (c === null) return [];
  const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "-");
  return [
    "",
    `### State churn: ${c.mints} mints watched (POST /v1/watch) and traded at once, every trade landing`,
    "",
    "| lanes | trades | trades/s | warm hit rate (all / repeat trades) | staleness of cached quotes p50 / p99 / max (slots) | cached quotes older than the bound | errors |",
    "|---:|---:|---:|---|---|---|---:|",
    `| ${c.lanes} | ${c.trades} | ${f1(c.tradesPerSecond)} | ${(c.hitRate * 100).toFixed(1)} % / ${(c.repeatHitRate * 100).toFixed(1)} % | ${f1(c.stalenessP50)} / ${f1(c.stalenessP99)} / ${f1(c.stalenessMax)} | ${c.overBound} (bound ${c.maxAgeSlots} slots) | ${c.errors} |`,
    "",
    "Staleness is measured at answer time against the localnet's slot (polled every 20 ms), so it over-states the age at quote time by up to the request's own duration. Each lane trades its own share of the mints (200 / lanes), after one unmeasured pass over them: a wallet's first trade of a mint reads, and subscribes its token accounts from then on.",
  ];
}
