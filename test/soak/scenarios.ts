/**
 * The four soak scenarios of issue 9 part 4, each against a cluster from test/harness (localnet and
 * service in their own processes). Each returns its figures; none asserts — the vitest short form and
 * `npm run soak` judge the figures against their goals.
 */
import { BLOCKHASH_VALIDITY_SLOTS } from "../../localnet/ledger/blockhash-queue.js";
import { allExecutions, fundedWallet, type Cluster, type ExecutionRecord } from "../harness/index.js";
import { goal, info, pct, type ScenarioReport } from "./figures.js";
import { callTrade, duplicates, percentile, runPool, tally, type TradeCall } from "./load.js";

/** Statuses reconciliation still has to move (the others are final). */
const OPEN = new Set(["pending", "submitted", "timeout"]);

/** A key with `wallets` funded wallets (the default one first) and `mints` live bonding curves. */
export interface Traders {
  apiKey: string;
  wallets: string[];
  mints: string[];
}

/** Makes the traders; each wallet buys each mint once (so later sells have tokens). */
export async function prepareTraders(
  cluster: Cluster,
  o: { wallets: number; mints: number; solEach: bigint },
): Promise<Traders> {
  const base = cluster.services[0]!.baseUrl;
  const { apiKey, wallet } = await cluster.setupKey({ sol: o.solEach });
  const wallets = [wallet];
  for (let i = 1; i < o.wallets; i++)
    wallets.push(await fundedWallet(base, cluster.localnet, apiKey, o.solEach));
  const mints: string[] = [];
  for (let i = 0; i < o.mints; i++) mints.push((await cluster.localnet.createToken()).mint);
  const warm = await runPool(wallets.length * mints.length, 8, (i) =>
    callTrade(
      base,
      apiKey,
      buyBody(wallets[i % wallets.length]!, mints[Math.floor(i / wallets.length)]!, true),
      60_000,
    ),
  );
  const bad = warm.filter((c) => c.status !== 200);
  if (bad.length > 0)
    throw new Error(
      `warm-up buys failed: ${JSON.stringify(tally(bad.map((c) => `${c.status} ${c.detail}`)))}`,
    );
  return { apiKey, wallets, mints };
}

function buyBody(wallet: string, mint: string, confirm: boolean): Record<string, unknown> {
  return { action: "buy", mint, amount: "0.001", wallet, confirm };
}

/** Trade i of a run: wallets round-robin, mints in turn, one in five a sell of 5 % of the balance. */
export function tradeBody(t: Traders, i: number, confirm: boolean): Record<string, unknown> {
  const wallet = t.wallets[i % t.wallets.length]!;
  const mint = t.mints[Math.floor(i / t.wallets.length) % t.mints.length]!;
  return i % 5 === 4
    ? { action: "sell", mint, amount: "5%", wallet, confirm }
    : buyBody(wallet, mint, confirm);
}

function latencyFigures(calls: TradeCall[], seconds: number) {
  const ms = calls.filter((c) => c.status !== null).map((c) => c.ms);
  return [
    info("throughput", `${(calls.length / seconds).toFixed(1)} trades/s`),
    info(
      "latency p50 / p95 / p99 / max",
      `${[50, 95, 99, 100].map((p) => percentile(ms, p).toFixed(0)).join(" / ")} ms`,
    ),
  ];
}

function statusLine(calls: TradeCall[]): string {
  return tally(calls.map((c) => c.status ?? "no answer"))
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
}

function errorDetails(calls: TradeCall[]): string {
  const t = tally(
    calls.filter((c) => c.status !== 200).map((c) => `${c.status ?? "no answer"} ${c.detail ?? ""}`.trim()),
  );
  return t.length === 0
    ? "none"
    : t
        .slice(0, 5)
        .map(([d, n]) => `${n}× ${d}`)
        .join("; ");
}

/** The key's records created after `before` (ids of earlier records). */
async function newRecords(baseUrl: string, apiKey: string, before: Set<string>): Promise<ExecutionRecord[]> {
  return (await allExecutions(baseUrl, apiKey)).filter((r) => !before.has(r.id));
}

/**
 * (a) `trades` trades (confirm off) at `concurrency` across the traders' wallets: 5xx, executions
 * recorded vs requests answered with a signature, duplicate signatures at the relay.
 */
export async function loadScenario(
  cluster: Cluster,
  t: Traders,
  o: { trades: number; concurrency: number },
): Promise<ScenarioReport> {
  const urls = cluster.services.map((s) => s.baseUrl);
  const before = new Set((await allExecutions(urls[0]!, t.apiKey)).map((r) => r.id));
  await cluster.localnet.resetRelaySignatures();
  const t0 = performance.now();
  const calls = await runPool(o.trades, o.concurrency, (i) =>
    callTrade(urls[i % urls.length]!, t.apiKey, tradeBody(t, i, false), 120_000),
  );
  const seconds = (performance.now() - t0) / 1000;
  const records = await newRecords(urls[0]!, t.apiKey, before);
  const relay = await cluster.localnet.relaySignatures();

  const answered = calls.map((c) => c.signature).filter((s): s is string => s !== null);
  const recorded = new Set(records.flatMap((r) => r.signatures));
  const fiveXx = calls.filter((c) => c.status !== null && c.status >= 500).length;
  const noAnswer = calls.filter((c) => c.status === null).length;
  const answeredNotRecorded = answered.filter((s) => !recorded.has(s)).length;
  const relayNotRecorded = relay.filter((e) => !recorded.has(e.signature)).length;
  const resent = relay.filter((e) => e.sends > 1).length;
  const dupAnswers = duplicates(answered).length;
  return {
    scenario: "(a) load: trades at concurrency, confirm off",
    setup: `${o.trades} trades (4 buys of 0.001 SOL : 1 sell of 5 %) at concurrency ${o.concurrency}, ${t.wallets.length} wallets, ${t.mints.length} mints, ${urls.length} service process(es)`,
    seconds,
    figures: [
      goal("5xx answers", fiveXx, "0", fiveXx === 0),
      goal("requests without an answer", noAnswer, "0", noAnswer === 0),
      info("statuses", statusLine(calls)),
      info("errors (top 5)", errorDetails(calls)),
      goal(
        "executions recorded vs requests answered with a signature",
        `${records.length} vs ${answered.length}`,
        "equal",
        records.length === answered.length && answeredNotRecorded === 0,
      ),
      goal(
        "answered signatures missing from the history",
        answeredNotRecorded,
        "0",
        answeredNotRecorded === 0,
      ),
      goal("signatures at the relay missing from the history", relayNotRecorded, "0", relayNotRecorded === 0),
      goal(
        "duplicate signatures (sent to the relay twice / answered twice)",
        `${resent} / ${dupAnswers}`,
        "0 / 0",
        resent === 0 && dupAnswers === 0,
      ),
      ...latencyFigures(calls, seconds),
    ],
  };
}

/** (b) `trades` trades while 30 % of RPC calls (reads) fail with HTTP 429 or 500: share that completes. */
export async function readFaultScenario(
  cluster: Cluster,
  t: Traders,
  o: { trades: number; concurrency: number; errorRate?: number },
): Promise<ScenarioReport> {
  const urls = cluster.services.map((s) => s.baseUrl);
  const errorRate = o.errorRate ?? 0.3;
  await cluster.localnet.resetStats();
  await cluster.localnet.setFaults({ errorRate, errorKinds: ["http429", "http500"], endpoints: ["rpc"] });
  const t0 = performance.now();
  let calls: TradeCall[];
  try {
    calls = await runPool(o.trades, o.concurrency, (i) =>
      callTrade(urls[i % urls.length]!, t.apiKey, tradeBody(t, i, false), 120_000),
    );
  } finally {
    await cluster.localnet.clearFaults();
  }
  const seconds = (performance.now() - t0) / 1000;
  const stats = await cluster.localnet.stats();
  const rpcCalls = Object.entries(stats)
    .filter(([k]) => k.startsWith("rpc.") || k.includes(":rpc."))
    .reduce((n, [, v]) => n + v, 0);
  const ok = calls.filter((c) => c.status === 200).length;
  const fiveXx = calls.filter((c) => c.status !== null && c.status >= 500).length;
  return {
    scenario: `(b) reads failing ${Math.round(errorRate * 100)} % (HTTP 429 and 500)`,
    setup: `${o.trades} trades (simulate on: 2 reads each) at concurrency ${o.concurrency}, every RPC method failing at random ${Math.round(errorRate * 100)} % of calls, half 429 half 500; sends through the relay unaffected`,
    seconds,
    figures: [
      goal(
        "trades completed (200)",
        `${ok} of ${calls.length} (${pct(ok, calls.length)})`,
        "100 %",
        ok === calls.length,
      ),
      goal("5xx answers", fiveXx, "0", fiveXx === 0),
      info("errors (top 5)", errorDetails(calls)),
      info("RPC calls per trade (retries included)", (rpcCalls / calls.length).toFixed(2)),
      ...latencyFigures(calls, seconds),
    ],
  };
}

/**
 * (c) sends accepted but never landing, confirm on: every request answers within its bounded wait
 * (`confirmTimeoutMs` + `slackMs`) with confirmed false; then, the chain moved past their blockhashes,
 * reconciliation moves the records to expired.
 */
export async function neverLandScenario(
  cluster: Cluster,
  t: Traders,
  o: {
    trades: number;
    concurrency: number;
    confirmTimeoutMs: number;
    slackMs: number;
    settleTimeoutMs: number;
  },
): Promise<ScenarioReport> {
  const url = cluster.services[0]!.baseUrl;
  const before = new Set((await allExecutions(url, t.apiKey)).map((r) => r.id));
  await cluster.localnet.setFaults({ neverLand: true });
  const bound = o.confirmTimeoutMs + o.slackMs;
  const t0 = performance.now();
  let calls: TradeCall[];
  try {
    // measure_timing: the response tells how long the service waited for confirmation. A request with no
    // answer within a minute counts as hanging.
    calls = await runPool(o.trades, o.concurrency, (i) =>
      callTrade(url, t.apiKey, { ...tradeBody(t, i, true), measure_timing: true }, 60_000),
    );
  } finally {
    await cluster.localnet.clearFaults();
  }
  const seconds = (performance.now() - t0) / 1000;
  const waits = calls.map((c) => c.confirmationMs).filter((m): m is number => m !== null);
  const inBound = waits.filter((m) => m <= bound).length;
  const unconfirmed = calls.filter((c) => c.status === 200 && c.confirmed === false).length;
  const hung = calls.filter((c) => c.status === null).length;
  const answeredMs = calls.filter((c) => c.status !== null).map((c) => c.ms);

  // Reconciliation: none of them can land; once their blockhash expires they become `expired`. The chain is
  // moved past every blockhash they used (each fetched before its request answered, so valid up to at most
  // the current slot + 150) instead of waiting for the slot clock: expiry on the chain is what the service
  // must see, not how long it took. Its reconciliation still has to find and close every record by itself.
  await cluster.localnet.advanceSlots(Number(BLOCKHASH_VALIDITY_SLOTS) + 1);
  const settled = await waitFinal(url, t.apiKey, before, o.settleTimeoutMs);
  return {
    scenario: "(c) sends that never land",
    setup: `${o.trades} trades, confirm on, at concurrency ${o.concurrency}; the relay accepts every send and none lands; CONFIRM_TIMEOUT_MS=${o.confirmTimeoutMs}`,
    seconds,
    figures: [
      goal(
        `confirmation wait (timing_ms.confirmation) within ${bound} ms`,
        `${inBound} of ${calls.length} (longest ${Math.max(0, ...waits)} ms)`,
        "all",
        inBound === calls.length,
      ),
      goal(
        "answered 200 with confirmed: false",
        `${unconfirmed} of ${calls.length}`,
        "all",
        unconfirmed === calls.length,
      ),
      goal("requests that hung (no answer within 60 s)", hung, "0", hung === 0),
      info(
        "answer time end to end, p50 / max",
        `${percentile(answeredMs, 50).toFixed(0)} / ${percentile(answeredMs, 100).toFixed(0)} ms`,
      ),
      info("errors (top 5)", errorDetails(calls)),
      goal(
        "records final after reconciliation",
        `${settled.final} of ${settled.total} in ${(settled.ms / 1000).toFixed(1)} s (${settled.statuses})`,
        "all, expired",
        settled.total === o.trades && settled.records.every((r) => r.status === "expired"),
      ),
    ],
  };
}

/** Polls the key's records newer than `before` until none is open or `timeoutMs` passes. */
async function waitFinal(
  url: string,
  apiKey: string,
  before: Set<string>,
  timeoutMs: number,
): Promise<{ total: number; final: number; ms: number; statuses: string; records: ExecutionRecord[] }> {
  const t0 = performance.now();
  for (;;) {
    const records = await newRecords(url, apiKey, before);
    const final = records.filter((r) => !OPEN.has(r.status)).length;
    const ms = performance.now() - t0;
    if (final === records.length || ms > timeoutMs) {
      const statuses = tally(records.map((r) => r.status))
        .map(([s, n]) => `${s} ${n}`)
        .join(", ");
      return { total: records.length, final, ms, statuses, records };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * (d) kill -9 of the service with `trades` trades in flight (confirm on, sends landing a few slots
 * late), restart on the same port and database: every signature that reached the relay is in the history,
 * and reconciliation brings every record to a final state.
 */
export async function killScenario(
  cluster: Cluster,
  t: Traders,
  o: { trades: number; killAfterRelaySends: number; settleTimeoutMs: number },
): Promise<ScenarioReport> {
  const victim = cluster.services[0]!;
  const before = new Set((await allExecutions(victim.baseUrl, t.apiKey)).map((r) => r.id));
  await cluster.localnet.resetRelaySignatures();
  // Sends land 10 slots late and every call takes 20 ms more, so the kill finds requests at every stage.
  await cluster.localnet.setFaults({ landAfterSlots: 10, latencyMs: 20 });
  const t0 = performance.now();
  const inflight = runPool(o.trades, o.trades, (i) =>
    callTrade(victim.baseUrl, t.apiKey, tradeBody(t, i, true), 60_000),
  );
  for (;;) {
    const sent = (await cluster.localnet.relaySignatures()).length;
    if (sent >= o.killAfterRelaySends || performance.now() - t0 > 30_000) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const tKill = performance.now();
  await victim.kill();
  const calls = await inflight;
  const answeredBeforeKill = calls.filter((c) => c.status !== null).length;
  await cluster.localnet.setFaults({});
  const relayAtKill = await cluster.localnet.relaySignatures();
  const restarted = await cluster.addService({ port: victim.port });
  const restartMs = performance.now() - tKill;

  const settled = await waitFinal(restarted.baseUrl, t.apiKey, before, o.settleTimeoutMs);
  const recorded = new Map(settled.records.flatMap((r) => r.signatures.map((s) => [s, r] as const)));
  const reachedRelay = relayAtKill.filter((e) => recorded.has(e.signature)).length;
  const relayAll = await cluster.localnet.relaySignatures();
  const relayed = new Set(relayAll.filter((e) => e.accepted).map((e) => e.signature));
  // A record may only be confirmed if its transaction really went out.
  const landedUnsent = settled.records.filter(
    (r) =>
      (r.status === "confirmed" || r.status === "finalized") && !r.signatures.every((s) => relayed.has(s)),
  ).length;
  return {
    scenario: "(d) kill -9 with trades in flight, then restart",
    setup: `${o.trades} trades (confirm on, sends landing 10 slots late, 20 ms per upstream call) fired at once; SIGKILL as soon as at least ${o.killAfterRelaySends} had reached the relay; restart on the same port and database; RECONCILE_INTERVAL_MS=300, RECONCILE_GRACE_MS=1000`,
    seconds: (performance.now() - t0) / 1000,
    figures: [
      info("requests answered before the kill", `${answeredBeforeKill} of ${o.trades}`),
      info("signatures that had reached the relay at the kill", relayAtKill.length),
      goal(
        "of those, in the history after restart",
        `${reachedRelay} of ${relayAtKill.length} (${pct(reachedRelay, relayAtKill.length)})`,
        "100 %",
        reachedRelay === relayAtKill.length,
      ),
      info("records after restart", `${settled.total} (${settled.statuses})`),
      goal(
        "records in a final state",
        `${settled.final} of ${settled.total}, ${(settled.ms / 1000).toFixed(1)} s after the restart`,
        "all",
        settled.final === settled.total,
      ),
      goal(
        "records confirmed whose transaction never reached the relay",
        landedUnsent,
        "0",
        landedUnsent === 0,
      ),
      info("kill to restarted service answering /healthz", `${(restartMs / 1000).toFixed(1)} s`),
    ],
  };
}
