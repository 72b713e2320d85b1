/**
 * Issue 20's figures, part 1: executions over every service process of a cluster (one PostgreSQL), with an
 * event stream per account held on each process. Every stream must get every event of the outbox once, in
 * id order; the latency figure is the time from the state change (the event's `created_at`, stamped by the
 * writing process just before its statement) to the stream client reading it.
 */
import { createParser } from "eventsource-parser";
import { apiRequest, fundedWallet, type Cluster } from "../harness/index.js";
import { goal, info, pct, type ScenarioReport } from "./figures.js";
import { duplicates, percentile, runPool, tally } from "./load.js";

/** One event as the API shows it (the fields the scenarios read). */
export interface EventView {
  id: number;
  type: string;
  execution_id: string;
  status: string;
  created_at: string;
}

/** An account of the scenarios: a key with two funded wallets that send each other lamports. */
export interface EventAccount {
  apiKey: string;
  wallets: [string, string];
}

/** Makes `n` accounts, each with its default wallet and a second one, funded with `sol` SOL each. */
export async function eventAccounts(cluster: Cluster, n: number, sol: bigint): Promise<EventAccount[]> {
  const out: EventAccount[] = [];
  for (let i = 0; i < n; i++) {
    const { apiKey, wallet } = await cluster.setupKey({ sol });
    const second = await fundedWallet(cluster.services[0]!.baseUrl, cluster.localnet, apiKey, sol);
    out.push({ apiKey, wallets: [wallet, second] });
  }
  return out;
}

/** What one execution request came back with. */
export interface ExecCall {
  status: number | null;
  detail: string | null;
}

/**
 * `total` SOL transfers of 1,000 lamports between each account's two wallets (the cheapest execution on the
 * localnet), confirm on, accounts and processes round-robin, at `concurrency`.
 */
export async function runTransfers(
  urls: string[],
  accounts: EventAccount[],
  total: number,
  concurrency: number,
): Promise<ExecCall[]> {
  return runPool(total, concurrency, async (i) => {
    const a = accounts[i % accounts.length]!;
    const flip = Math.floor(i / accounts.length) % 2;
    try {
      const res = await apiRequest<{ detail?: string }>(
        urls[i % urls.length]!,
        "POST",
        "/v1/sol/transfer/execute",
        {
          apiKey: a.apiKey,
          body: {
            source_wallet: a.wallets[flip],
            destination_wallet: a.wallets[1 - flip],
            amount: "0.000001",
          },
          timeoutMs: 120_000,
        },
      );
      return { status: res.status, detail: res.status === 200 ? null : (res.body?.detail ?? res.text) };
    } catch (e) {
      return { status: null, detail: (e as Error).message };
    }
  });
}

/** Every event of the key in the outbox (JSON pages of GET /v1/events). */
export async function outboxEvents(baseUrl: string, apiKey: string): Promise<EventView[]> {
  const out: EventView[] = [];
  let after = "0";
  for (;;) {
    const res = await apiRequest<{ events: EventView[]; next_cursor: string }>(
      baseUrl,
      "GET",
      `/v1/events?after=${after}&limit=1000`,
      { apiKey, headers: { accept: "application/json" } },
    );
    if (res.status !== 200) throw new Error(`events page failed: ${res.status} ${res.text}`);
    out.push(...res.body.events);
    if (res.body.events.length < 1000) return out;
    after = res.body.next_cursor;
  }
}

/** One message a stream client read, with when. */
interface Got {
  id: number;
  event: EventView;
  atMs: number;
}

/** A stream client: reads GET /v1/events, resumes with Last-Event-ID when the connection drops. */
export interface StreamClient {
  got: Got[];
  reconnects: number;
  close(): void;
}

/** Opens a stream of new events only; resolves once the service said `connected`. */
export async function openStreamClient(baseUrl: string, apiKey: string): Promise<StreamClient> {
  const abort = new AbortController();
  const c: StreamClient = { got: [], reconnects: 0, close: () => abort.abort() };
  let connected: () => void = () => {};
  const ready = new Promise<void>((r) => (connected = r));
  const once = async (): Promise<void> => {
    const last = c.got.at(-1)?.id;
    const res = await fetch(`${baseUrl}/v1/events`, {
      headers: {
        accept: "text/event-stream",
        "x-api-key": apiKey,
        ...(last !== undefined ? { "last-event-id": String(last) } : {}),
      },
      signal: abort.signal,
    });
    if (res.status !== 200 || res.body === null) throw new Error(`stream answered ${res.status}`);
    const parser = createParser({
      onEvent: (m) => {
        if (m.event !== undefined) return;
        c.got.push({ id: Number(m.id), event: JSON.parse(m.data) as EventView, atMs: Date.now() });
      },
      onComment: (t) => {
        if (t.includes("connected")) connected();
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
  };
  void (async () => {
    while (!abort.signal.aborted) {
      try {
        await once();
      } catch {
        // dropped: resume below
      }
      if (abort.signal.aborted) return;
      c.reconnects += 1;
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  await ready;
  return c;
}

/** Waits until `check` holds or `timeoutMs` passes; returns whether it held. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const FINAL = new Set(["confirmed", "finalized", "failed", "expired"]);

/** Whether every execution in `events` has reached a final status. */
export function allFinal(events: EventView[]): boolean {
  const last = new Map<string, string>();
  for (const e of events) last.set(e.execution_id, e.status);
  return [...last.values()].every((s) => FINAL.has(s));
}

/** (e) `executions` transfers over every process, a stream per account on each process. */
export async function eventLoadScenario(
  cluster: Cluster,
  o: { executions: number; concurrency: number; accounts: number; settleTimeoutMs: number },
): Promise<ScenarioReport> {
  const urls = cluster.services.map((s) => s.baseUrl);
  const accounts = await eventAccounts(cluster, o.accounts, 50n);
  const streams = await Promise.all(
    accounts.flatMap((a) => urls.map(async (u) => ({ a, client: await openStreamClient(u, a.apiKey) }))),
  );
  const t0 = performance.now();
  const calls = await runTransfers(urls, accounts, o.executions, o.concurrency);
  const seconds = (performance.now() - t0) / 1000;
  // The outbox is the reference: wait until every execution is final there, then until each stream has it all.
  const outbox = new Map<string, EventView[]>();
  await until(async () => {
    for (const a of accounts) outbox.set(a.apiKey, await outboxEvents(urls[0]!, a.apiKey));
    return accounts.every((a) => allFinal(outbox.get(a.apiKey)!));
  }, o.settleTimeoutMs);
  await until(
    () => streams.every((s) => s.client.got.length >= outbox.get(s.a.apiKey)!.length),
    o.settleTimeoutMs,
  );
  streams.forEach((s) => s.client.close());

  let lost = 0;
  let dup = 0;
  let disorder = 0;
  let stray = 0;
  const latencies: number[] = [];
  for (const s of streams) {
    const want = outbox.get(s.a.apiKey)!;
    const ids = s.client.got.map((g) => g.id);
    const seen = new Set(ids);
    lost += want.filter((e) => !seen.has(e.id)).length;
    dup += duplicates(ids.map(String)).length;
    disorder += ids.filter((id, i) => i > 0 && id <= ids[i - 1]!).length;
    const known = new Set(want.map((e) => e.id));
    stray += ids.filter((id) => !known.has(id)).length;
    // created_at is RFC 3339 with its Z (issue 20): parsed as it is.
    for (const g of s.client.got) latencies.push(g.atMs - Date.parse(g.event.created_at));
  }
  const events = [...outbox.values()].reduce((n, l) => n + l.length, 0);
  const executions = new Set([...outbox.values()].flat().map((e) => e.execution_id)).size;
  const ok = calls.filter((c) => c.status === 200).length;
  const fiveXx = calls.filter((c) => c.status === null || c.status >= 500).length;
  const finals = tally(
    [...outbox.values()].flatMap((l) => l.filter((e) => FINAL.has(e.status)).map((e) => e.status)),
  );
  const received = streams.reduce((n, s) => n + s.client.got.length, 0);
  const reconnects = streams.reduce((n, s) => n + s.client.reconnects, 0);
  return {
    scenario: "(e) execution events: executions over every process, a stream per account on each",
    setup: `${o.executions} SOL transfers (1,000 lamports, confirm on) at concurrency ${o.concurrency}, ${o.accounts} accounts, ${urls.length} service process(es) on one ${cluster.database.kind} database; ${streams.length} stream clients (one per account on each process)`,
    seconds,
    figures: [
      // Informational: what is tested here is the events; a localnet too slow to answer a send is scenario (a)'s subject.
      info("executions answered 200", `${ok} of ${calls.length} (${pct(ok, calls.length)})`),
      info("5xx or no answer", fiveXx),
      info(
        "errors (top 3)",
        tally(calls.filter((c) => c.status !== 200).map((c) => `${c.status} ${c.detail}`))
          .slice(0, 3)
          .map(([d, n]) => `${n}× ${d}`)
          .join("; ") || "none",
      ),
      info(
        "events in the outbox (executions)",
        `${events} (${executions}; final: ${finals.map(([s, n]) => `${s} ${n}`).join(", ")})`,
      ),
      goal("executions recorded", executions, String(o.executions), executions === o.executions),
      info(
        "events read by the stream clients",
        `${received} (${streams.length} × ${events / o.accounts} on average)`,
      ),
      goal("events lost (in the outbox, missing from a stream)", lost, "0", lost === 0),
      goal("events read twice by one client (same id)", dup, "0", dup === 0),
      goal(
        "events out of order (id not above the previous one of the account)",
        disorder,
        "0",
        disorder === 0,
      ),
      goal("events read that the outbox does not hold", stray, "0", stray === 0),
      info("stream reconnects (resumed with Last-Event-ID)", reconnects),
      info(
        "state change → stream client, p50 / p99 / max",
        `${[50, 99, 100].map((p) => percentile(latencies, p).toFixed(0)).join(" / ")} ms`,
      ),
      info("execution throughput", `${(o.executions / seconds).toFixed(1)} executions/s`),
    ],
  };
}
