/**
 * Trigger latency of an order against a client that follows `/v1/stream` and posts the trade itself, on the
 * in-process sandbox (localnet slots of 50 ms, warm state and market feed on, as main.ts runs them; the app
 * listens on a port so the client's stream and request go over real sockets). Each round: a fresh token, a
 * holder's buy, then either a take-profit at +5% (order) or a stream client armed at +5% of the spot price
 * (client), then a 5 SOL buy that crosses both: another account's through the service's API, or an outside
 * wallet's sent straight to the cluster (CrossBy).
 *
 * The client runs in this process (the service's), and again in a process of its own
 * (bench/stream-client-process.ts, the same rule: bench/stream-client-rule.ts), as an operator's bot on the same
 * machine runs; the three kinds of round take turns.
 *
 * Measured alike for all, from the first sign of the crossing buy at the service — the curve account's
 * notification on the service's own subscription, or the market feed's decoded trade of the mint, whichever
 * comes first (the warm state acts on both; the stream is fed by the latter) — to the sell's sendTransaction
 * leaving the service for the relay (its fetch is timed). The order's figure is the trigger latency;
 * the client's is its end to end (stream delivery, its own decision, its HTTP request, the trade).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { PublicKey, type Keypair } from "@solana/web3.js";
import WebSocket from "ws";
import { bondingCurveAddress } from "../src/launch/programs.js";
import { decodeBondingCurveOnce } from "../src/launch/state.js";
import type { FetchLike } from "../src/chain/json-rpc.js";
import { startE2e, trade, type E2e } from "../test/helpers/e2e.js";
import { crossesLevel, postSell, type ArmedLevel } from "./stream-client-rule.js";
import { crossLevel, outsideTrader, prepareCross, type CrossBy } from "./orders-cross.js";
import type { StoreOptions } from "./orders-store.js";
import type { FromClient, ToClient } from "./stream-client-process.js";

/** Milliseconds per measured round, in the order they ran. */
export interface TriggerFigures {
  order: number[];
  client: number[];
  /** Rounds whose sell never reached the relay (or came before any sign of the crossing buy). */
  missed: { order: number; client: number };
}

/**
 * The level bench's figures: besides the client in the bench's (and the service's) own process, the same client in
 * a process of its own (bench/stream-client-process.ts), as an operator's bot on the same machine runs.
 */
export interface LevelFigures extends TriggerFigures {
  ownProcess: number[];
  missedOwnProcess: number;
}

type Mode = "order" | "client" | "ownProcess";
const MODES: readonly Mode[] = ["order", "client", "ownProcess"];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ACCOUNT_ROUNDS = 10;

/** The in-process sandbox a latency bench runs on: the app on a port, each sendTransaction's time. */
export interface BenchSandbox {
  e2e: E2e;
  /** host:port of the listening app. */
  base: string;
  /** performance.now() of each sendTransaction leaving the service, in order. */
  sends: number[];
}

/**
 * Starts the sandbox (warm state and market feed on), runs `f` on it, closes it. `store`: its database (default an
 * in-memory SQLite database, whose commits never reach a disk; see orders-store.ts).
 */
export async function withSandbox<T>(
  f: (s: BenchSandbox) => Promise<T>,
  store: StoreOptions = {},
): Promise<T> {
  const sends: number[] = [];
  const inner = globalThis.fetch as unknown as FetchLike;
  const timed: FetchLike = (url, init) => {
    if (typeof init.body === "string" && init.body.includes('"sendTransaction"'))
      sends.push(performance.now());
    return inner(url, init);
  };
  const e2e = await startE2e({
    warm: true,
    market: true,
    chain: { fetch: timed },
    ...store,
  });
  try {
    await e2e.app.listen({ port: 0, host: "127.0.0.1" });
    const addr = e2e.app.server.address();
    if (addr === null || typeof addr === "string") throw new Error("no port");
    return await f({ e2e, base: `127.0.0.1:${addr.port}`, sends });
  } finally {
    await e2e.close();
  }
}

/** Runs `rounds` rounds of each: order, client in this process, client in its own process, in turn. */
export async function measureTriggers(
  rounds: number,
  s: BenchSandbox,
  cross: CrossBy = "outside",
): Promise<LevelFigures> {
  const { e2e, base, sends } = s;
  const out: LevelFigures = {
    order: [],
    client: [],
    missed: { order: 0, client: 0 },
    ownProcess: [],
    missedOwnProcess: 0,
  };
  const child = startClientProcess();
  try {
    let holder = await e2e.setup({ sol: 100n });
    let mover = await e2e.setup({ sol: 1000n });
    const trader = outsideTrader(e2e, MODES.length * rounds);
    for (let r = 0; r < MODES.length * rounds; r++) {
      // New accounts every ACCOUNT_ROUNDS rounds: an account's request and stream limits per minute would refuse
      // a long run's later rounds (429).
      if (r > 0 && r % (MODES.length * ACCOUNT_ROUNDS) === 0) {
        holder = await e2e.setup({ sol: 100n });
        mover = await e2e.setup({ sol: 1000n });
      }
      const mode = MODES[r % MODES.length]!;
      const ms = await round(e2e, {
        holder: holder.apiKey,
        mover: mover.apiKey,
        trader,
        cross,
        base,
        sends,
        mode,
        child,
      });
      if (mode === "ownProcess") {
        if (ms === null) out.missedOwnProcess++;
        else out.ownProcess.push(ms);
      } else if (ms === null) out.missed[mode]++;
      else out[mode].push(ms);
    }
  } finally {
    child.close();
  }
  return out;
}

/** The client process and its next answer about a mint (answers of earlier rounds' mints are dropped). */
interface ClientProcess {
  send(m: ToClient): void;
  next(mint: string): Promise<FromClient>;
  close(): void;
}

/** Starts bench/stream-client-process.ts with an IPC channel. */
function startClientProcess(): ClientProcess {
  const script = fileURLToPath(new URL("./stream-client-process.ts", import.meta.url));
  const child: ChildProcess = fork(script, [], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const queued: FromClient[] = [];
  let waiting: { mint: string; resolve: (m: FromClient) => void } | undefined;
  child.on("message", (m: FromClient) => {
    if (waiting?.mint === m.mint) {
      const w = waiting;
      waiting = undefined;
      w.resolve(m);
    } else queued.push(m);
  });
  return {
    send: (m) => void child.send(m),
    next: (mint) => {
      // A late answer of an earlier round (its sell outlived the round's wait) is not this round's.
      while (queued.length > 0) {
        const q = queued.shift()!;
        if (q.mint === mint) return Promise.resolve(q);
      }
      return new Promise((resolve) => (waiting = { mint, resolve }));
    },
    close: () => {
      if (child.connected) child.send({ type: "close" } satisfies ToClient);
      setTimeout(() => child.kill(), 1_000).unref();
    },
  };
}

interface RoundInput {
  holder: string;
  mover: string;
  /** The crossing buy's signer: a wallet outside the service (cross "outside"). */
  trader: Keypair;
  cross: CrossBy;
  base: string;
  sends: number[];
  mode: Mode;
  child: ClientProcess;
}

/**
 * A new token `holderKey` bought 0.5 SOL of, and from now on the times of every sign of a trade of it at the
 * service: its own subscription of the curve (handlers of one account share its notification) and the feed's
 * decoded trades. `stop` ends the watch.
 */
export async function heldMint(
  e2e: E2e,
  holderKey: string,
): Promise<{ mint: string; seen: number[]; stop: () => void }> {
  const { mint } = e2e.localnet.admin.createToken();
  await trade(e2e, holderKey, { action: "buy", mint, amount: "0.5", simulate: false, confirm: true });
  const seen: number[] = [];
  const stopAccount = e2e.chain.subscriptions.accountSubscribe(
    bondingCurveAddress(new PublicKey(mint)).toBase58(),
    () => seen.push(performance.now()),
  );
  const stopFeed = e2e.feed?.onEvents((events) => {
    if (events.some((ev) => "mint" in ev && ev.mint === mint)) seen.push(performance.now());
  });
  return {
    mint,
    seen,
    stop: () => {
      stopAccount();
      stopFeed?.();
    },
  };
}

async function round(e2e: E2e, o: RoundInput): Promise<number | null> {
  const { mint, seen, stop } = await heldMint(e2e, o.holder);
  let settled: Promise<unknown> = Promise.resolve();
  let client: WebSocket | undefined;
  if (o.mode === "order") {
    const placed = await e2e.post(o.holder, "/v1/orders", { kind: "take_profit", mint, percent: 5 });
    if (placed.statusCode !== 200) throw new Error(placed.body);
    const id = placed.json<{ id: string }>().id;
    settled = (async () => {
      for (let i = 0; i < 500; i++) {
        const s = (await e2e.get(o.holder, `/v1/orders/${id}`)).json<{ state: string }>().state;
        if (s !== "open" && s !== "triggered") return;
        await sleep(10);
      }
    })();
  } else if (o.mode === "client") {
    const armed = await streamClient(e2e, o.base, o.holder, mint);
    client = armed.ws;
    settled = armed.done;
  } else {
    o.child.send({ type: "arm", base: o.base, apiKey: o.holder, mint });
    const armed = await o.child.next(mint);
    if (armed.type !== "armed") throw new Error(`client process: ${JSON.stringify(armed)}`);
    const level = await spotLevel(e2e, mint);
    o.child.send({ type: "level", sol: level.sol.toString(), tokens: level.tokens.toString() });
    settled = o.child.next(mint);
  }
  const buy = await prepareCross(e2e, o.cross, o.mover, o.trader, mint);
  // Let the mint settle in the warm state (and the client's subscription), then cross the level.
  await sleep(200);
  seen.length = 0;
  const { crossAt, sellIndex } = await crossLevel(e2e, buy, o.sends);
  await Promise.race([settled, sleep(5_000)]);
  stop();
  client?.close();
  return firstSignToSend(seen, crossAt, o.sends[sellIndex]);
}

/**
 * From the first sign the service saw of a trade sent at `tradeAt` (`seen`: its sign times) to the reacting send
 * at `reactAt`; null when either send is missing or the sign came after the reaction.
 */
export function firstSignToSend(
  seen: readonly number[],
  tradeAt: number | undefined,
  reactAt: number | undefined,
): number | null {
  if (tradeAt === undefined || reactAt === undefined) return null;
  const first = seen.find((t) => t > tradeAt);
  return first === undefined || first > reactAt ? null : reactAt - first;
}

/** Subscribes `ws` with `method` to `keys` and waits for the stream's `subscribed` answer. */
export async function subscribe(ws: WebSocket, method: string, keys: string[]): Promise<void> {
  await new Promise<void>((resolve) => {
    const onSubscribed = (d: WebSocket.RawData) => {
      if ((JSON.parse(d.toString()) as { type: string }).type !== "subscribed") return;
      ws.off("message", onSubscribed);
      resolve();
    };
    ws.on("message", onSubscribed);
    ws.send(JSON.stringify({ method, keys }));
  });
}

/** A WebSocket on the service's /v1/stream with `apiKey`, open. */
export async function openStream(base: string, apiKey: string): Promise<WebSocket> {
  const ws = new WebSocket(`ws://${base}/v1/stream`, { headers: { "x-api-key": apiKey } });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  return ws;
}

/**
 * A client as an operator's bot would be: follows the mint's trades on /v1/stream and, on the first one whose
 * spot price (virtual reserves) is 5% above the spot when armed, sells its whole position through the API.
 */
async function streamClient(
  e2e: E2e,
  base: string,
  apiKey: string,
  mint: string,
): Promise<{ ws: WebSocket; done: Promise<unknown> }> {
  const ws = await openStream(base, apiKey);
  let level: ArmedLevel | null = null;
  let fired = false;
  const done = new Promise((resolve) => {
    ws.on("message", (d: WebSocket.RawData) => {
      if (fired || level === null) return;
      if (!crossesLevel(JSON.parse(d.toString()) as { type: string }, mint, level)) return;
      fired = true;
      postSell(base, apiKey, mint).then(resolve, resolve);
    });
  });
  await subscribe(ws, "subscribeTokenTrade", [mint]);
  level = await spotLevel(e2e, mint);
  return { ws, done };
}

/** The spot price when armed: the curve's virtual reserves, read once (not on the timed path). */
async function spotLevel(e2e: E2e, mint: string): Promise<ArmedLevel> {
  const info = await e2e.connection.getAccountInfo(bondingCurveAddress(new PublicKey(mint)), "confirmed");
  if (info === null) throw new Error(`no curve for ${mint}`);
  const c = decodeBondingCurveOnce(info.data);
  return { sol: c.virtualQuoteReserves, tokens: c.virtualTokenReserves };
}
