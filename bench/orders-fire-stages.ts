/**
 * `node --import tsx bench/orders-fire-stages.ts [--rounds 20] [--cross service] [--store file|postgres]`: where an
 * order's trigger latency goes, stage by stage, on the in-process sandbox of bench/orders-trigger.ts (a take-profit at +5% crossed by an
 * outside wallet's buy sent straight to the cluster, or with `--cross service` by another account's buy through the
 * service). Timers are set around the fire's collaborators (the engine's evaluation, the store's calls, the vault,
 * the chain's assembly and submit, the relay fetch); each round prints when each began and ended, in ms from the
 * first sign of the crossing buy at the service, and the summary gives each stage's median and the gaps between
 * them (time the fire waited for the event loop rather than worked). `--store file`: the sandbox's store is a SQLite
 * file synced on every commit, as `npm start` keeps it; `--store postgres`: TEST_DATABASE_URL's (default: in
 * memory). Nothing here runs in tests.
 */
import { performance } from "node:perf_hooks";
import type { FetchLike } from "../src/chain/json-rpc.js";
import { OrderEngine } from "../src/domain/orders/engine.js";
import { startE2e } from "../test/helpers/e2e.js";
import { heldMint } from "./orders-trigger.js";
import { crossLevel, outsideTrader, prepareCross, type CrossBy } from "./orders-cross.js";
import { sandboxStore, storeOptions } from "./orders-store.js";
import { numberFlag, stringFlag } from "./flags.js";
import { runScript } from "./process-stats.js";

interface Span {
  name: string;
  start: number;
  end: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let spans: Span[] = [];
let tracing = false;

/** Wraps `obj[name]` (a function) so each call while tracing is a span. */
function wrap(obj: object, name: string, label = name): void {
  const o = obj as Record<string, unknown>;
  const inner = o[name];
  if (typeof inner !== "function") return;
  o[name] = function (this: unknown, ...args: unknown[]) {
    if (!tracing) return (inner as (...a: unknown[]) => unknown).apply(this, args);
    const s: Span = { name: label, start: performance.now(), end: Number.NaN };
    spans.push(s);
    const r = (inner as (...a: unknown[]) => unknown).apply(this, args);
    if (r instanceof Promise)
      return r.finally(() => {
        s.end = performance.now();
      });
    s.end = performance.now();
    return r;
  };
}

async function main(): Promise<void> {
  const rounds = numberFlag(process.argv.slice(2), "rounds", 20);
  let sendAt: number[] = [];
  const inner = globalThis.fetch as unknown as FetchLike;
  const timed: FetchLike = (url, init) => {
    if (typeof init.body === "string" && init.body.includes('"sendTransaction"')) {
      sendAt.push(performance.now());
      if (tracing) spans.push({ name: "relay fetch", start: performance.now(), end: performance.now() });
    }
    return inner(url, init);
  };
  const store = sandboxStore(stringFlag(process.argv.slice(2), "store", "memory"));
  const e2e = await startE2e({
    warm: true,
    market: true,
    chain: { fetch: timed },
    ...storeOptions(store),
  });
  wrap(OrderEngine.prototype, "evaluate", "engine.evaluate");
  for (const m of [
    "transitionOrder",
    "claimOrderRecording",
    "findKey",
    "findWallet",
    "findDefaultWallet",
    "insertExecution",
    "updateExecution",
    "spentLamports",
    "findExecutionIdByKey",
    "appendActivity",
  ])
    wrap(e2e.store, m, `store.${m}`);
  wrap(e2e.vault, "withKeypair", "vault.withKeypair");
  wrap(e2e.chain, "assemble", "chain.assemble");
  wrap(e2e.chain, "submit", "chain.submit");
  const perStage = new Map<string, number[]>();
  const totals: number[] = [];
  try {
    const holder = await e2e.setup({ sol: 100n });
    const mover = await e2e.setup({ sol: 1000n });
    const cross: CrossBy =
      stringFlag(process.argv.slice(2), "cross", "outside") === "service" ? "service" : "outside";
    const trader = outsideTrader(e2e, rounds);
    for (let r = 0; r < rounds; r++) {
      const { mint, seen, stop } = await heldMint(e2e, holder.apiKey);
      const placed = await e2e.post(holder.apiKey, "/v1/orders", { kind: "take_profit", mint, percent: 5 });
      if (placed.statusCode !== 200) throw new Error(placed.body);
      const buy = await prepareCross(e2e, cross, mover.apiKey, trader, mint);
      await sleep(200);
      sendAt = [];
      seen.length = 0;
      spans = [];
      tracing = true;
      const { crossAt, sellIndex } = await crossLevel(e2e, buy, sendAt);
      for (let i = 0; i < 300 && sendAt.length <= sellIndex; i++) await sleep(10);
      await sleep(100);
      tracing = false;
      stop();
      const sellAt = sendAt[sellIndex];
      const first = seen.find((t) => crossAt !== undefined && t > crossAt);
      if (crossAt === undefined || sellAt === undefined || first === undefined) {
        console.log(`round ${r}: missed`);
        continue;
      }
      totals.push(sellAt - first);
      const rel = (t: number) => (t - first).toFixed(2);
      const fire = spans.filter((s) => s.start >= first - 0.001 && s.start <= sellAt + 0.001);
      console.log(`round ${r}: ${(sellAt - first).toFixed(2)} ms`);
      for (const s of fire) {
        console.log(`  ${s.name.padEnd(24)} ${rel(s.start).padStart(7)} → ${rel(s.end).padStart(7)}`);
        const d = s.end - s.start;
        if (!Number.isNaN(d)) perStage.set(s.name, [...(perStage.get(s.name) ?? []), d]);
      }
    }
  } finally {
    await e2e.close();
    await store.remove();
  }
  const med = (l: number[]) => [...l].sort((a, b) => a - b)[Math.floor(l.length / 2)] ?? Number.NaN;
  const sorted = [...totals].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  // The lowest rounds are those the process ran through without waiting for a CPU: its own work.
  console.log(
    `\ntrigger latency over ${totals.length} rounds: min ${at(0).toFixed(2)}, p25 ${at(0.25).toFixed(2)}, ` +
      `median ${med(totals).toFixed(2)}, max ${at(1).toFixed(2)} ms`,
  );
  for (const [name, l] of perStage)
    console.log(`  ${name.padEnd(24)} median ${med(l).toFixed(2)} ms (${l.length} spans)`);
}

runScript(main);
