/**
 * The landing scenario of `npm run bench` (also alone: `tsx bench/landing-scenario.ts [--short] [--trades N]`,
 * or BENCH_LANDING_SHORT=1): raced trades through the HTTP API (POST /v1/trades/execute, in-process app +
 * localnet) on the localnet's four routes, drop rates 10/20/30/40 % and slot delays 0-3. Side by side: each
 * route alone (`routes: ["route-x"]`) and the race over all four (`routes: "all"`). Per set-up: landing rate,
 * slots to land p50/p90, tips paid per landed trade, and the double-fill checks (at most one variant of a trade
 * ever lands, the wallet's nonce value changes exactly once per landed trade, the wallet's token balance is the
 * sum of the landed trades' fills). Then the warm first-buy figure (bench/first-buy.ts) and the outside-build
 * figure (bench/outside-build.ts) measured in the same run.
 */
import { loadavg } from "node:os";
import { PublicKey } from "@solana/web3.js";
import { decodeNonce, nonceAddress } from "../src/chain/landing/nonce.js";
import { RouteStats } from "../src/chain/landing/route-stats.js";
import { startE2e, type E2e } from "../test/helpers/e2e.js";
import { measureFirstBuy, renderFirstBuy } from "./first-buy.js";
import { measureOutsideBuild, renderOutsideBuild } from "./outside-build.js";
import {
  landingRate,
  landingRow,
  renderLanding,
  type LandingColumn,
  type LandingRow,
} from "./landing-summary.js";
import { numberFlag } from "./flags.js";

/** Sizes of one landing run. */
export interface LandingOptions {
  /** Trades per set-up. */
  trades: number;
  firstBuyRounds: number;
  outsideBuilds: number;
}

/** The short form (seconds) and the full one. */
export const LANDING_SHORT: LandingOptions = { trades: 8, firstBuyRounds: 3, outsideBuilds: 100 };
export const LANDING_FULL: LandingOptions = { trades: 100, firstBuyRounds: 30, outsideBuilds: 2000 };

interface Row extends LandingRow {
  /** Nonce value changes that did not match a landed trade (or landed trades without one). */
  nonceMismatches: number;
}

interface Raced {
  confirmed: boolean;
  landed_via: string | null;
  slots_to_land: number | null;
  routes: { route: string; signature: string; tip_lamports: string }[];
  fill?: { token_change: string } | null;
}

async function runSetup(e2e: E2e, setup: string, routes: "all" | string[], trades: number): Promise<Row> {
  const { apiKey, wallet } = await e2e.setup({ sol: 100n });
  const { mint } = e2e.localnet.admin.createToken();
  const nonceKey = await nonceAddress(new PublicKey(wallet));
  const nonceValue = async () =>
    decodeNonce(nonceKey, (await e2e.chain.rpc.getAccountInfo(nonceKey)).value)?.value ?? null;
  const row: Row = { ...landingRow(setup, trades), nonceMismatches: 0 };
  const body = { action: "buy", mint, amount: "0.001", simulate: false, routes };
  // The nonce is created by the first raced trade: one untimed trade first.
  const warm = await e2e.post(apiKey, "/v1/trades/execute", body);
  if (warm.statusCode !== 200) throw new Error(warm.body);
  let tokens = BigInt(warm.json<Raced>().fill?.token_change ?? "0");
  const signatures: string[][] = [];
  for (let i = 0; i < trades; i++) {
    // A slot between trades: a nonce cannot be advanced twice in one slot.
    e2e.localnet.admin.advanceSlots(1);
    const before = await nonceValue();
    const res = await e2e.post(apiKey, "/v1/trades/execute", body);
    if (res.statusCode !== 200) throw new Error(res.body);
    const a = res.json<Raced>();
    signatures.push(a.routes.map((v) => v.signature));
    const changed = (await nonceValue()) !== before;
    if (a.confirmed) {
      row.landed++;
      if (a.slots_to_land !== null) row.slots.push(a.slots_to_land);
      row.tips += BigInt(a.routes.find((v) => v.route === a.landed_via)?.tip_lamports ?? "0");
      tokens += BigInt(a.fill?.token_change ?? "0");
    }
    if (changed !== a.confirmed) row.nonceMismatches++;
  }
  // Late variants have had every chance to land by now.
  e2e.localnet.admin.advanceSlots(8);
  for (const s of signatures) {
    const { value } = await e2e.chain.rpc.getSignatureStatuses(s);
    if (value.filter((v) => v !== null && v !== undefined).length > 1) row.doubleFills++;
  }
  row.balanceOk = (await e2e.tokenBalance(wallet, mint)) === tokens;
  return row;
}

/** The scenario's own checks, after the common columns. */
const SCENARIO_COLUMNS: LandingColumn<Row>[] = [
  ["nonce advances ≠ landings", (r) => String(r.nonceMismatches)],
  ["token balance = fills", (r) => (r.balanceOk ? "ok" : "MISMATCH")],
];

/** Runs the landing scenario and the two side figures; returns the markdown section. */
export async function runLandingScenario(
  o: LandingOptions,
  log: (l: string) => void = () => {},
): Promise<string> {
  // A variant lands within 3 slots (150 ms) of its acceptance: a 1.5 s wait is plenty and keeps drops cheap.
  const e2e = await startE2e({
    routes: { stats: new RouteStats(), confirmTimeoutMs: 1_500 },
    env: { RATE_LIMIT_EXECUTIONS: "0", RATE_LIMIT_ACCOUNT_EXECUTIONS: "0" },
  });
  const rows: Row[] = [];
  let described = "";
  try {
    described = e2e.localnet.admin
      .routes()
      .map((r) => `${r.name} drop ${Math.round(r.drop_rate * 100)} % delay ${r.slot_delay.join("-")}`)
      .join(", ");
    for (const r of e2e.localnet.routes) {
      log(`landing: ${r.name} alone`);
      rows.push(await runSetup(e2e, `${r.name} alone`, [r.name], o.trades));
    }
    log("landing: race over all four");
    rows.push(await runSetup(e2e, "race (all four)", "all", o.trades));
  } finally {
    await e2e.close();
  }
  log("landing: warm first buy");
  const firstBuy = await measureFirstBuy(o.firstBuyRounds);
  log("landing: outside build");
  const outside = await measureOutsideBuild(o.outsideBuilds, { warmup: Math.min(200, o.outsideBuilds) });
  const singles = rows.slice(0, -1);
  const best = singles.reduce((b, r) => (r.landed > b.landed ? r : b), singles[0]!);
  return [
    "## Landing (raced trades through POST /v1/trades/execute)",
    "",
    `routes: ${described}; ${o.trades} trades per set-up, confirm on, simulate off`,
    "",
    renderLanding(rows, SCENARIO_COLUMNS),
    "",
    `best single route: ${best.setup} (${landingRate(best)}); race: ${landingRate(rows.at(-1)!)}`,
    "",
    renderFirstBuy(firstBuy),
    "",
    renderOutsideBuild(outside),
    "",
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ")}`,
  ].join("\n");
}

/**
 * The section `npm run bench` appends: the short form with `--quick` or BENCH_LANDING_SHORT=1, none with
 * BENCH_LANDING=0.
 */
export async function landingSection(quick: boolean, log: (l: string) => void): Promise<string> {
  if (process.env.BENCH_LANDING === "0") return "";
  const short = quick || process.env.BENCH_LANDING_SHORT === "1";
  return runLandingScenario(short ? LANDING_SHORT : LANDING_FULL, log);
}

if (process.argv[1]?.endsWith("bench/landing-scenario.ts")) {
  const short = process.argv.includes("--short") || process.env.BENCH_LANDING_SHORT === "1";
  const base = short ? LANDING_SHORT : LANDING_FULL;
  const o = { ...base, trades: numberFlag(process.argv, "trades", base.trades) };
  console.log(await runLandingScenario(o, (l) => process.stderr.write(`${l}\n`)));
}
