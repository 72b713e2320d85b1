/**
 * Issue 20's figures, part 2: webhook receivers that fail half their attempts or are down for a while, and a
 * kill -9 of every service process while deliveries are pending. The receivers verify every signature with the
 * `standardwebhooks` package; "delivered" is what a receiver answered 2xx, checked against the outbox.
 */
import { apiRequest, type Cluster } from "../harness/index.js";
import { goal, info, type ScenarioReport } from "./figures.js";
import {
  allFinal,
  eventAccounts,
  outboxEvents,
  runTransfers,
  until,
  type EventAccount,
  type ExecCall,
} from "./event-load.js";
import { tally } from "./load.js";
import { startSoakReceiver, type SoakReceiver } from "./hook-receiver.js";

/** Registers `r` as an endpoint of the account for every event type; keeps its secret in the receiver. */
async function subscribe(baseUrl: string, a: EventAccount, r: SoakReceiver): Promise<void> {
  const res = await apiRequest<{ secret: string; detail?: string }>(baseUrl, "POST", "/v1/webhooks", {
    apiKey: a.apiKey,
    body: { url: r.url, types: ["*"] },
  });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status} ${res.text}`);
  r.secret = res.body.secret;
}

/** Message ids (event ids) of the outbox that `r` has not answered 2xx yet. */
function undelivered(r: SoakReceiver, ids: string[]): string[] {
  return ids.filter((id) => !r.tally.delivered.has(id));
}

/** The executions behind the events: informational (these scenarios test delivery, not the localnet's speed). */
function executionsFigure(calls: ExecCall[]): ReturnType<typeof info> {
  const errors = tally(calls.filter((c) => c.status !== 200).map((c) => `${c.status} ${c.detail}`));
  const ok = calls.length - errors.reduce((n, [, k]) => n + k, 0);
  const top = errors.slice(0, 2).map(([d, n]) => `${n}× ${d}`);
  return info(
    "executions answered 200",
    `${ok} of ${calls.length}${top.length > 0 ? ` (${top.join("; ")})` : ""}`,
  );
}

function receiverFigures(name: string, r: SoakReceiver, ids: string[]): ReturnType<typeof goal>[] {
  const missing = undelivered(r, ids).length;
  const twice = [...r.tally.delivered.values()].filter((n) => n > 1).length;
  return [
    goal(
      `${name}: events delivered (answered 2xx)`,
      `${ids.length - missing} of ${ids.length}`,
      "all",
      missing === 0,
    ),
    goal(
      `${name}: signatures verified by standardwebhooks`,
      `${r.tally.verified} of ${r.tally.attempts} attempts (${r.tally.badSignatures} refused)`,
      "all",
      r.tally.badSignatures === 0 && r.tally.verified === r.tally.attempts,
    ),
    info(
      `${name}: attempts refused on purpose / events delivered more than once`,
      `${r.tally.refused} / ${twice}`,
    ),
  ];
}

/**
 * (f) two receivers on one account: A fails `failShare` of its attempts (seeded), B is down for `downMs` from
 * the start; `executions` transfers run meanwhile. Every event must reach both.
 */
export async function webhookFaultScenario(
  cluster: Cluster,
  o: { executions: number; concurrency: number; downMs: number; failShare: number; settleTimeoutMs: number },
): Promise<ScenarioReport> {
  const urls = cluster.services.map((s) => s.baseUrl);
  const [account] = await eventAccounts(cluster, 1, 20n);
  const flaky = await startSoakReceiver(20);
  flaky.failShare = o.failShare;
  const down = await startSoakReceiver(21);
  try {
    await subscribe(urls[0]!, account!, flaky);
    await subscribe(urls[0]!, account!, down);
    const t0 = performance.now();
    await down.down();
    let tUp = 0;
    let downFor = 0;
    // B comes back after downMs whether or not the executions are done by then.
    const comeBack = new Promise<void>((resolve) =>
      setTimeout(() => {
        downFor = performance.now() - t0;
        void down.up().then(() => {
          tUp = performance.now();
          resolve();
        });
      }, o.downMs),
    );
    const calls = await runTransfers(urls, [account!], o.executions, o.concurrency);
    const tExecuted = performance.now();
    await comeBack;
    let ids: string[] = [];
    await until(async () => {
      ids = (await outboxEvents(urls[0]!, account!.apiKey)).map((e) => String(e.id));
      return undelivered(flaky, ids).length === 0 && undelivered(down, ids).length === 0;
    }, o.settleTimeoutMs);
    const catchUp = (performance.now() - Math.max(tUp, tExecuted)) / 1000;
    return {
      scenario: "(f) webhooks: a receiver failing half its attempts, one down for a while",
      setup: `${o.executions} SOL transfers (confirm on) at concurrency ${o.concurrency} through ${urls.length} process(es); receiver A answers 500 to ${Math.round(o.failShare * 100)} % of attempts (seeded), receiver B is down (port closed) for the first ${(o.downMs / 1000).toFixed(0)} s`,
      seconds: (performance.now() - t0) / 1000,
      figures: [
        executionsFigure(calls),
        info("events in the outbox", ids.length),
        ...receiverFigures("A (failing)", flaky, ids),
        info("B: down for", `${(downFor / 1000).toFixed(1)} s`),
        ...receiverFigures("B (down)", down, ids),
        info(
          "every event at both receivers, this long after B was back and the executions done",
          `${catchUp.toFixed(1)} s`,
        ),
      ],
    };
  } finally {
    await flaky.close();
    await down.close();
  }
}

/**
 * (g) deliveries pile up while the receiver is down; it comes back slow (each answer after `answerDelayMs`) and
 * failing half its attempts, and once it has taken `killAfterShare` of them every service process is killed
 * with -9 (leases held mid-attempt). One process restarts on the same database: all must be delivered.
 */
export async function webhookKillScenario(
  cluster: Cluster,
  o: {
    executions: number;
    concurrency: number;
    answerDelayMs: number;
    killAfterShare: number;
    settleTimeoutMs: number;
  },
): Promise<ScenarioReport> {
  const urls = cluster.services.map((s) => s.baseUrl);
  const [account] = await eventAccounts(cluster, 1, 20n);
  const r = await startSoakReceiver(22);
  try {
    await subscribe(urls[0]!, account!, r);
    await r.down();
    const t0 = performance.now();
    const calls = await runTransfers(urls, [account!], o.executions, o.concurrency);
    // Executions the localnet did not confirm in time are settled by reconciliation: their last events first.
    let events = await outboxEvents(urls[0]!, account!.apiKey);
    await until(
      async () => allFinal((events = await outboxEvents(urls[0]!, account!.apiKey))),
      o.settleTimeoutMs,
    );
    const ids = events.map((e) => String(e.id));
    r.failShare = 0.5;
    r.answerDelayMs = o.answerDelayMs;
    await r.up();
    const target = Math.max(1, Math.floor(ids.length * o.killAfterShare));
    await until(() => r.tally.delivered.size >= target, o.settleTimeoutMs);
    const victims = [...cluster.services];
    await Promise.all(victims.map((v) => v.kill()));
    const deliveredAtKill = r.tally.delivered.size;
    const attemptsAtKill = r.tally.attempts;
    const tKill = performance.now();
    const restarted = await cluster.addService({ port: victims[0]!.port });
    const restartSeconds = (performance.now() - tKill) / 1000;
    await until(() => undelivered(r, ids).length === 0, o.settleTimeoutMs);
    const allIn = (performance.now() - tKill) / 1000;
    // The restarted process's own outbox must still hold the same events (nothing written twice or lost).
    const after = (await outboxEvents(restarted.baseUrl, account!.apiKey)).length;
    return {
      scenario: "(g) kill -9 of the processes holding pending deliveries, then restart",
      setup: `${o.executions} SOL transfers while the receiver is down; it comes back answering after ${o.answerDelayMs} ms and failing 50 % of attempts; every service process (${victims.length}) killed with -9 once ${Math.round(o.killAfterShare * 100)} % of the events were delivered; one process restarted on the same database`,
      seconds: (performance.now() - t0) / 1000,
      figures: [
        executionsFigure(calls),
        info(
          "events delivered / attempts at the kill",
          `${deliveredAtKill} of ${ids.length} / ${attemptsAtKill}`,
        ),
        goal(
          "events pending at the kill",
          ids.length - deliveredAtKill,
          "> 0",
          ids.length - deliveredAtKill > 0,
        ),
        ...receiverFigures("receiver", r, ids),
        goal("outbox after the restart", `${after} events`, String(ids.length), after === ids.length),
        info(
          "kill to restarted process answering / to every event delivered",
          `${restartSeconds.toFixed(1)} s / ${allIn.toFixed(1)} s`,
        ),
      ],
    };
  } finally {
    await r.close();
  }
}
