/**
 * `npm run bench:first-buy [-- --rounds 40]`: the sniper's trade on the in-process sandbox (app + localnet,
 * warm state on). Each round creates a token, watches it (POST /v1/watch), then times, end to end through the
 * HTTP API, the first buy of the mint (warm first buy: no read) and a repeat buy of it once fully warm. Prints
 * p50/p90 of both, their ratio, and the upstream calls counted at the first buy's answer. `measureFirstBuy` is
 * also the landing scenario's first-buy figure (bench/landing-scenario.ts).
 *
 * The localnet's relay answers on acceptance and executes right after (`answerOnAcceptance`), as a mainnet relay
 * answers before the leader executes: otherwise the in-process localnet executes the transaction before
 * answering, and the first buy, which also creates the wallet's token account (an Associated Token program call
 * the repeat buy does not make), is timed with the chain's execution of it on the same thread. `--execution`
 * keeps the old mode. Even so the in-process localnet executes the accepted send on the next turn of the one event
 * loop, before the app reads the relay's answer: the token account's creation (about 1 ms of LiteSVM) is still
 * timed with the first buy. `--next-slot` has the relay land sends one slot later instead, as a leader executes
 * them, so neither buy is timed with the chain's execution of it (issue 32).
 *
 * The repeat buy follows a burst of warm-up buys, the hottest code and caches a buy can meet, while the first buy
 * follows a token creation and a watch. `--same-lead-in` has the repeat follow the same work (a token created and
 * watched, another mint), so the two buys differ only in their own paths (issue 32).
 */
import { startE2e, trade } from "../test/helpers/e2e.js";
import { until } from "../test/helpers/warm.js";
import { percentile } from "../src/chain/landing/route-stats.js";
import { numberFlag } from "./flags.js";

const FAST = { simulate: false, confirm: false } as const;

/** The first-buy figures of one run. */
export interface FirstBuyResult {
  rounds: number;
  /** The relay answered after executing (true) or on acceptance. */
  execution: boolean;
  /** Sends landed one slot later (the chain's execution off both timed buys). */
  nextSlot: boolean;
  /** The repeat buy followed the same lead-in as the first (a token created and watched). */
  sameLeadIn: boolean;
  firstP50: number;
  firstP90: number;
  repeatP50: number;
  repeatP90: number;
  /** Upstream calls at the first buy's answer (JSON of the counters) → rounds seen. */
  calls: Map<string, number>;
}

/** How the relay answers and what precedes the repeat buy (see the file's comment). */
export interface FirstBuyModes {
  execution?: boolean;
  nextSlot?: boolean;
  sameLeadIn?: boolean;
}

/** Runs `rounds` rounds of watch → first buy → repeat warm buy on a fresh in-process sandbox. */
export async function measureFirstBuy(rounds: number, modes: FirstBuyModes = {}): Promise<FirstBuyResult> {
  const { execution = false, nextSlot = false, sameLeadIn = false } = modes;
  const e2e = await startE2e({ warm: true });
  try {
    const { apiKey } = await e2e.setup({ sol: 1000n });
    const first: number[] = [];
    const repeat: number[] = [];
    const calls = new Map<string, number>();
    const leadIn = async (): Promise<string> => {
      const { mint } = e2e.localnet.admin.createToken();
      const res = await e2e.post(apiKey, "/v1/watch", { mints: [mint] });
      if (res.statusCode !== 200) throw new Error(res.body);
      return mint;
    };
    for (let i = 0; i < rounds; i++) {
      const mint = await leadIn();
      e2e.reset();
      if (nextSlot) e2e.localnet.admin.setFaults({ landAfterSlots: 1 });
      else if (!execution) e2e.localnet.admin.setFaults({ answerOnAcceptance: true });
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
      if (sameLeadIn) await leadIn();
      t0 = performance.now();
      await trade(e2e, apiKey, { action: "buy", mint, amount: "0.01", ...FAST });
      repeat.push(performance.now() - t0);
    }
    const f = first.sort((x, y) => x - y);
    const r = repeat.sort((x, y) => x - y);
    return {
      rounds,
      execution,
      nextSlot,
      sameLeadIn,
      firstP50: percentile(f, 50)!,
      firstP90: percentile(f, 90)!,
      repeatP50: percentile(r, 50)!,
      repeatP90: percentile(r, 90)!,
      calls,
    };
  } finally {
    await e2e.close();
  }
}

/** The first-buy figures as markdown lines. */
export function renderFirstBuy(r: FirstBuyResult): string {
  return [
    `first buy after POST /v1/watch vs repeat warm buy, ${r.rounds} rounds (in-process sandbox, relay answers ` +
      `${r.nextSlot ? "on acceptance, sends land a slot later" : r.execution ? "after executing" : "on acceptance"}` +
      `${r.sameLeadIn ? "; the repeat follows a token created and watched, as the first buy does" : ""})`,
    "| buy | p50 ms | p90 ms |\n|---|---|---|",
    `| first after watch | ${r.firstP50.toFixed(2)} | ${r.firstP90.toFixed(2)} |`,
    `| repeat, fully warm | ${r.repeatP50.toFixed(2)} | ${r.repeatP90.toFixed(2)} |`,
    `p50 ratio first / repeat: ${(r.firstP50 / r.repeatP50).toFixed(3)}`,
    `upstream calls at the first buy's answer: ${JSON.stringify([...r.calls])}`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("bench/first-buy.ts")) {
  const rounds = numberFlag(process.argv, "rounds", 40);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds takes a positive integer");
  const modes = {
    execution: process.argv.includes("--execution"),
    nextSlot: process.argv.includes("--next-slot"),
    sameLeadIn: process.argv.includes("--same-lead-in"),
  };
  console.log(renderFirstBuy(await measureFirstBuy(rounds, modes)));
}
