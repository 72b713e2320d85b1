/**
 * (h) Orders fire exactly once across two service processes on one PostgreSQL and a `kill -9`: `orders`
 * take-profits (each its own size) placed through both processes, one buy crosses every level, the first
 * process is killed as soon as `killAfterRelaySends` sells reached the relay, and the survivor
 * settles the rest (a dead process's claim without a recorded attempt goes back to open; one with a record is
 * settled from it, never sent again). Counted per order: sends at the relay (through its executions'
 * signatures), executions, order.filled / order.failed events. Returns figures; asserts nothing.
 */
import { allExecutions, apiRequest, type Cluster } from "../harness/index.js";
import { goal, info, type ScenarioReport } from "./figures.js";
import { duplicates, runPool } from "./load.js";
import { copyFigures, leaderBuys, placeCopies } from "./orders-kill-copy.js";

interface Order {
  id: string;
  state: string;
  attempts: number;
  execution_ids: string[];
}

interface Event {
  type: string;
  execution_id: string;
}

/** Every order.* settlement event of the key, paged. */
async function settlementEvents(baseUrl: string, apiKey: string): Promise<Event[]> {
  const out: Event[] = [];
  let after = "0";
  for (;;) {
    const r = await apiRequest<{ events: Event[]; next_cursor?: string }>(
      baseUrl,
      "GET",
      `/v1/events?after=${after}&limit=500&types=order.filled,order.failed`,
      { apiKey, headers: { accept: "application/json" } },
    );
    if (r.status !== 200) throw new Error(`events: ${r.status} ${r.text}`);
    out.push(...r.body.events);
    if (r.body.events.length === 0 || r.body.next_cursor === undefined) return out;
    after = r.body.next_cursor;
  }
}

/** (h) above. Needs a cluster of two processes on PostgreSQL with short order sync and lease. */
export async function ordersKillScenario(
  cluster: Cluster,
  o: {
    orders: number;
    killAfterRelaySends: number;
    settleTimeoutMs: number;
    copies: number;
    followed: number;
    syncWaitMs: number;
  },
): Promise<ScenarioReport> {
  const [a, b] = cluster.services as [(typeof cluster.services)[0], (typeof cluster.services)[0]];
  const holder = await cluster.setupKey({ sol: 20n });
  const mover = await cluster.setupKey({ sol: 200n });
  const { mint } = await cluster.localnet.createToken();
  const buy = await apiRequest(a.baseUrl, "POST", "/v1/trades/execute", {
    apiKey: holder.apiKey,
    body: { action: "buy", mint, amount: "1", simulate: false, confirm: true },
  });
  if (buy.status !== 200) throw new Error(`holder buy: ${buy.status} ${buy.text}`);
  const ids = await runPool(o.orders, 8, async (i) => {
    const r = await apiRequest<Order>(i % 2 === 0 ? a.baseUrl : b.baseUrl, "POST", "/v1/orders", {
      apiKey: holder.apiKey,
      body: {
        kind: "take_profit",
        mint,
        percent: 5,
        amount: String(1_000_000_000 + i * 1_000),
        slippage: 50,
      },
    });
    if (r.status !== 200) throw new Error(`order ${i}: ${r.status} ${r.text}`);
    return r.body.id;
  });
  let copyMs = performance.now();
  const copies = await placeCopies(cluster, o.copies);
  copyMs = performance.now() - copyMs;
  // Both engines hold every order once a few of their store polls have run.
  await new Promise((r) => setTimeout(r, o.syncWaitMs));
  await cluster.localnet.resetRelaySignatures();
  // Sells land a few slots late and every upstream call is slower, so the kill finds fires at every stage.
  await cluster.localnet.setFaults({ landAfterSlots: 5, latencyMs: 50 });
  const t0 = performance.now();
  // Half the leader's buys land with the crossing buy: their copies are claimed while the kill comes.
  const before = Math.ceil(o.followed / 2);
  const followed = await leaderBuys(b.baseUrl, copies, before, false);
  const move = await apiRequest(b.baseUrl, "POST", "/v1/trades/execute", {
    apiKey: mover.apiKey,
    body: { action: "buy", mint, amount: "20", simulate: false, confirm: false },
  });
  if (move.status !== 200) throw new Error(`crossing buy: ${move.status} ${move.text}`);
  for (;;) {
    const sent = (await cluster.localnet.relaySignatures()).length;
    if (sent >= 1 + before + o.killAfterRelaySends || performance.now() - t0 > 60_000) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const sentAtKill = (await cluster.localnet.relaySignatures()).length - 1 - before;
  await a.kill();
  const tKill = performance.now();
  const unsettled = async (): Promise<number> => {
    let n = 0;
    for (const state of ["open", "triggered"]) {
      const r = await apiRequest<{ orders: Order[] }>(
        b.baseUrl,
        "GET",
        `/v1/orders?state=${state}&mint=${mint}&limit=500`,
        { apiKey: holder.apiKey },
      );
      if (r.status !== 200) throw new Error(`list orders: ${r.status} ${r.text}`);
      n += r.body.orders.length;
    }
    return n;
  };
  const atKill = await unsettled();
  await cluster.localnet.setFaults({});
  const tAfter = performance.now();
  followed.push(...(await leaderBuys(b.baseUrl, copies, o.followed - before, true)));
  copyMs += performance.now() - tAfter;
  while ((await unsettled()) > 0 && performance.now() - tKill < o.settleTimeoutMs)
    await new Promise((r) => setTimeout(r, 250));
  const settleMs = performance.now() - tKill;
  const done = new Map<string, Order>();
  const stuck: string[] = [];
  for (const id of ids) {
    const r = await apiRequest<Order>(b.baseUrl, "GET", `/v1/orders/${id}`, { apiKey: holder.apiKey });
    if (r.status === 200 && r.body.state !== "open" && r.body.state !== "triggered") done.set(id, r.body);
    else
      stuck.push(
        `${r.body.state} after ${r.body.attempts} attempts, ${r.body.execution_ids.length} executions`,
      );
  }
  const executions = new Map((await allExecutions(b.baseUrl, holder.apiKey)).map((e) => [e.id, e]));
  const relay = (await cluster.localnet.relaySignatures()).map((s) => s.signature);
  const relayCount = new Map<string, number>();
  for (const s of relay) relayCount.set(s, (relayCount.get(s) ?? 0) + 1);
  let once = 0;
  let twice = 0;
  let never = 0;
  let filled = 0;
  let extraExecutions = 0;
  let landedTwice = 0;
  let retriedAfterFailure = 0;
  for (const o of done.values()) {
    if (o.state === "filled") filled++;
    extraExecutions += Math.max(0, o.execution_ids.length - 1);
    const sends = o.execution_ids
      .flatMap((id) => executions.get(id)?.signatures ?? [])
      .reduce((n, s) => n + (relayCount.get(s) ?? 0), 0);
    const statuses = o.execution_ids.map((id) => executions.get(id)?.status ?? "missing");
    const landed = statuses.filter((st) => st === "confirmed" || st === "finalized").length;
    if (landed > 1) landedTwice++;
    // Sent again only after the earlier send failed on chain (expired, failed): the bounded retry, not a duplicate.
    if (sends > 1 && statuses.slice(0, -1).every((st) => st === "failed" || st === "expired"))
      retriedAfterFailure++;
    if (sends === 0) never++;
    else if (sends === 1) once++;
    else twice++;
  }
  const events = await settlementEvents(b.baseUrl, holder.apiKey);
  const perOrder = new Map<string, number>();
  for (const e of events) perOrder.set(e.execution_id, (perOrder.get(e.execution_id) ?? 0) + 1);
  const eventsLost = ids.filter((id) => !perOrder.has(id)).length;
  const eventsTwice = [...perOrder.values()].filter((n) => n > 1).length;
  const lost = ids.length - done.size;
  const tCopied = performance.now();
  const copied = await copyFigures(
    b.baseUrl,
    copies,
    followed,
    async () => {
      const m = new Map<string, number>();
      for (const x of await cluster.localnet.relaySignatures())
        m.set(x.signature, (m.get(x.signature) ?? 0) + 1);
      return m;
    },
    allExecutions,
    Math.max(30_000, o.settleTimeoutMs - settleMs),
  );
  return {
    scenario: "(h) orders across two processes, kill -9 of one mid-way",
    setup: `${o.orders} take-profits (a size each) on one mint and ${o.copies} copy orders following one leader, placed through both processes on PostgreSQL; one buy crosses every level beside ${before} of the leader's ${o.followed} buys; the first process killed (SIGKILL) once ${o.killAfterRelaySends} more sends reached the relay (sends landing 5 slots late, 50 ms per upstream call); the second settles the rest and sees the leader's other buys`,
    seconds: (performance.now() - t0) / 1000,
    figures: [
      info("sends at the relay just before the kill (sells and copies)", sentAtKill),
      info(
        "orders open or triggered (claimed, unsettled) just after the kill",
        `${atKill} (each state listed up to 500)`,
      ),
      goal("orders settled (filled or failed)", `${done.size} of ${ids.length}`, "all", lost === 0),
      info("filled", `${filled} of ${ids.length}`),
      info(
        "orders not settled at the end (state, attempts, executions)",
        stuck.length === 0 ? "none" : stuck.join("; "),
      ),
      goal(
        "orders sent exactly once (relay sends per order)",
        `${once} of ${ids.length}`,
        "all",
        once === ids.length,
      ),
      goal("orders sent twice or more", twice, "0", twice === 0),
      info(
        "of those, sent again only after the earlier sends failed on chain (bounded retry)",
        retriedAfterFailure,
      ),
      goal("orders whose sell landed twice or more", landedTwice, "0", landedTwice === 0),
      goal("orders never sent", never, "0", never === 0),
      info("executions beyond one per order (retries)", extraExecutions),
      goal("duplicate sends at the relay", duplicates(relay).length, "0", duplicates(relay).length === 0),
      goal("orders without a settlement event", eventsLost, "0", eventsLost === 0),
      goal("orders with two settlement events", eventsTwice, "0", eventsTwice === 0),
      info("kill to every order settled", `${(settleMs / 1000).toFixed(1)} s`),
      ...copied,
      info(
        "time the copy part added (placing, the leader's later buys, waiting for its records)",
        `${((copyMs + performance.now() - tCopied) / 1000).toFixed(1)} s`,
      ),
    ],
  };
}
