/**
 * The copy part of the soak's orders scenario (h): copy orders placed through both processes follow a leader
 * whose buys straddle the kill -9 of one process. Per (order, followed trade): its record from
 * GET /v1/orders/{id}/fires, sends at the relay (through the execution's signatures), order.triggered events.
 * A followed trade is copied at most once; one whose process died between claim and send is settled by the
 * survivor (from its execution when one was recorded, else dropped) and counted here as dropped.
 */
import { apiRequest, type Cluster, type ExecutionRecord } from "../harness/index.js";
import { goal, info, type Figure } from "./figures.js";
import { runPool } from "./load.js";

interface Fire {
  signature: string | null;
  decision: string;
  reason: string | null;
  execution_state: string | null;
  execution_id: string | null;
}

/** The copy orders and their leader. */
export interface CopySetup {
  copier: { apiKey: string };
  leader: { apiKey: string };
  mint: string;
  ids: string[];
}

/** Places `orders` copy orders (fixed 0.01 SOL buys) following a new leader, through both processes. */
export async function placeCopies(cluster: Cluster, orders: number): Promise<CopySetup> {
  const [a, b] = cluster.services as [(typeof cluster.services)[0], (typeof cluster.services)[0]];
  const copier = await cluster.setupKey({ sol: 20n });
  const leader = await cluster.setupKey({ sol: 20n });
  // Its own mint: the leader's buys do not move the take-profits' price.
  const { mint } = await cluster.localnet.createToken();
  const ids = await runPool(orders, 4, async (i) => {
    const r = await apiRequest<{ id: string }>(i % 2 === 0 ? a.baseUrl : b.baseUrl, "POST", "/v1/orders", {
      apiKey: copier.apiKey,
      body: { kind: "copy", follow: [leader.wallet], amount: "0.01", buys_only: true, slippage: 50 },
    });
    if (r.status !== 200) throw new Error(`copy order ${i}: ${r.status} ${r.text}`);
    return r.body.id;
  });
  return { copier, leader, mint, ids };
}

/** `n` buys of the leader through `baseUrl`, one after the other; their signatures. */
export async function leaderBuys(
  baseUrl: string,
  c: CopySetup,
  n: number,
  confirm: boolean,
): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await apiRequest<{ signature: string }>(baseUrl, "POST", "/v1/trades/execute", {
      apiKey: c.leader.apiKey,
      // A wide bound: the copies of its previous buy may land after this one was quoted (sends land late here),
      // and the leader's buys are the scenario's input, not what it checks.
      body: { action: "buy", mint: c.mint, amount: "0.02", slippage: 50, simulate: false, confirm },
    });
    if (r.status !== 200) throw new Error(`leader buy: ${r.status} ${r.text}`);
    out.push(r.body.signature);
  }
  return out;
}

async function firesOf(baseUrl: string, apiKey: string, id: string): Promise<Fire[]> {
  const r = await apiRequest<{ fires: Fire[] }>(baseUrl, "GET", `/v1/orders/${id}/fires?limit=500`, {
    apiKey,
  });
  if (r.status !== 200) throw new Error(`fires of ${id}: ${r.status} ${r.text}`);
  return r.body.fires;
}

/** Waits until every followed trade has a settled record on every order (or the timeout); then the figures. */
export async function copyFigures(
  baseUrl: string,
  c: CopySetup,
  trades: string[],
  relayCount: () => Promise<Map<string, number>>,
  allExecutions: (baseUrl: string, apiKey: string) => Promise<ExecutionRecord[]>,
  settleTimeoutMs: number,
): Promise<Figure[]> {
  const t0 = performance.now();
  let fires = new Map<string, Fire[]>();
  const settled = (): boolean =>
    c.ids.every((id) => {
      const f = fires.get(id) ?? [];
      return f.length === trades.length && f.every((x) => x.decision !== "claimed");
    });
  do {
    if (fires.size > 0) await new Promise((r) => setTimeout(r, 250));
    fires = new Map(
      await Promise.all(c.ids.map(async (id) => [id, await firesOf(baseUrl, c.copier.apiKey, id)] as const)),
    );
  } while (!settled() && performance.now() - t0 < settleTimeoutMs);
  const sends = await relayCount();
  const executions = new Map((await allExecutions(baseUrl, c.copier.apiKey)).map((e) => [e.id, e]));
  const keys = new Map<string, number>();
  for (const e of executions.values())
    if (e.idempotency_key != null) keys.set(e.idempotency_key, (keys.get(e.idempotency_key) ?? 0) + 1);
  const pairs = c.ids.length * trades.length;
  let once = 0;
  let twice = 0;
  let dropped = 0;
  let notSent = 0;
  const notSentWhy = new Map<string, number>();
  let unsettled = 0;
  let missing = 0;
  let recordsTwice = 0;
  for (const [id, list] of fires) {
    for (const sig of trades) {
      const mine = list.filter((f) => f.signature === sig);
      if (mine.length === 0) missing++;
      if (mine.length > 1) recordsTwice++;
      const f = mine[0];
      if (f === undefined) continue;
      if (f.decision === "claimed") unsettled++;
      const n =
        f.execution_id === null
          ? 0
          : (executions.get(f.execution_id)?.signatures ?? []).reduce((t, s) => t + (sends.get(s) ?? 0), 0);
      if (n === 1) once++;
      else if (n > 1) twice++;
      else if (f.decision === "dropped") dropped++;
      else {
        notSent++;
        const what = `${f.decision}${f.reason !== null ? `:${f.reason}` : ""}${f.execution_state !== null ? `/${f.execution_state}` : ""}`;
        notSentWhy.set(what, (notSentWhy.get(what) ?? 0) + 1);
      }
      // Two executions under one copy's key would be two sends of it, whatever the relay saw.
      if ((keys.get(`order:${id}:${sig}`) ?? 0) > 1) twice++;
    }
  }
  const triggered = await apiRequest<{ events: { execution_id: string }[] }>(
    baseUrl,
    "GET",
    "/v1/events?after=0&limit=1000&types=order.triggered",
    { apiKey: c.copier.apiKey, headers: { accept: "application/json" } },
  );
  const perOrder = new Map<string, number>();
  for (const e of triggered.body.events)
    perOrder.set(e.execution_id, (perOrder.get(e.execution_id) ?? 0) + 1);
  // One order.triggered per claim: as many as the order's records (a copy order has no other claim).
  const eventsTwice = c.ids.filter((id) => (perOrder.get(id) ?? 0) > (fires.get(id)?.length ?? 0)).length;
  return [
    info(
      "copy orders × followed buys (the leader's buys straddle the kill)",
      `${c.ids.length} × ${trades.length}`,
    ),
    goal(
      "followed trades with one record per copy order",
      `${pairs - missing} of ${pairs}`,
      "all",
      missing === 0,
    ),
    goal("records twice for one followed trade", recordsTwice, "0", recordsTwice === 0),
    info("copies sent once at the relay", `${once} of ${pairs}`),
    goal("copies sent twice or more", twice, "0", twice === 0),
    info("copies dropped (claimed by the killed process, nothing sent: settled as dropped)", dropped),
    info(
      "copies not at the relay for another reason (decision:reason/execution state)",
      notSent === 0 ? "0" : `${notSent} (${[...notSentWhy].map(([k, n]) => `${k} ${n}`).join(", ")})`,
    ),
    goal("copy claims left unsettled", unsettled, "0", unsettled === 0),
    goal("copy orders with more order.triggered events than claims", eventsTwice, "0", eventsTwice === 0),
  ];
}
