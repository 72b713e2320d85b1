/**
 * The console's first load and live latency (issue 33), on the sandbox (in-process localnet + app) in headless
 * chromium: bytes transferred for the first load, time to the sign-in form, time from sign-in to the overview's
 * numbers, and how long after a trade's answer its execution shows on the executions page and its position row
 * changes on the positions page (both pushed by /v1/events), and (`--live N` trades, console-live.ts) how long
 * after the service records each trade's event the page shows it. `npm run bench:console` (needs chromium:
 * `apt-get install -y chromium`, or CHROMIUM_PATH). The docs' screenshots: `npm run screenshots:console`.
 */
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startE2e } from "../test/helpers/e2e.js";
import { eventToPage } from "./console-live.js";
import { numberFlag } from "./flags.js";

const ROUNDS = 5;
/** Trades measured from their event to the page (`--live N`, default 30). */
const LIVE = numberFlag(process.argv, "live", 30);
const executable = [process.env.CHROMIUM_PATH, "/usr/bin/chromium"].find((p) => p && existsSync(p));
if (executable === undefined)
  throw new Error("no chromium: apt-get install -y chromium, or set CHROMIUM_PATH");
execFileSync(process.execPath, [fileURLToPath(new URL("../scripts/console-build.mjs", import.meta.url))]);

const e2e = await startE2e({ market: true });
const base = await e2e.app.listen({ port: 0, host: "127.0.0.1" });
const { apiKey } = await e2e.setup();
const { mint } = e2e.localnet.admin.createToken();
const browser = await chromium.launch({
  executablePath: executable,
  args: ["--no-sandbox", "--disable-gpu"],
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
let fromEvent: { execution: number[]; position: number[] } = { execution: [], position: [] };
const form: number[] = [];
const overview: number[] = [];
const live: number[] = [];
const position: number[] = [];
const dcl: number[] = [];
const fcp: number[] = [];
let bytes = 0;
try {
  for (let i = 0; i < ROUNDS; i++) {
    // A fresh context each round: a cold cache, as a first visit.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    let transferred = 0;
    page.on("response", async (r) => {
      const length = Number((await r.allHeaders())["content-length"] ?? 0);
      if (r.url().includes("/console")) transferred += length;
    });
    const t0 = performance.now();
    await page.goto(`${base}/console/`);
    await page.locator("input[name=key]").waitFor();
    form.push(performance.now() - t0);
    // The page's own clock (from its navigation start), without the driver's round trips.
    const timing = (await page.evaluate(`({
      dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
      fcp: performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint")?.startTime ?? 0,
    })`)) as { dcl: number; fcp: number };
    dcl.push(timing.dcl);
    fcp.push(timing.fcp);
    await page.fill("input[name=key]", apiKey);
    const t1 = performance.now();
    await page.click("button[type=submit]");
    await page.locator("[data-testid=sol-total] .value").waitFor();
    overview.push(performance.now() - t1);
    bytes = transferred;
    await page.goto(`${base}/console/#/executions`);
    await page
      .locator("[data-testid=feed-state]", { hasText: "live" })
      .waitFor()
      .catch(async (e: unknown) => {
        throw new Error(`round ${i}: ${await page.locator("header").textContent()}: ${String(e)}`);
      });
    const r = await e2e.post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.01" });
    const t2 = performance.now();
    const { signature } = r.json<{ signature: string }>();
    const id = (await e2e.get(apiKey, `/v1/executions?signature=${signature}`)).json<{
      executions: { id: string }[];
    }>().executions[0]!.id;
    await page.locator(`tr[data-execution="${id}"] .status`, { hasText: "confirmed" }).waitFor();
    live.push(performance.now() - t2);
    // The position row: re-read on its position.updated event (valued), pushed to the page.
    await page.goto(`${base}/console/#/positions`);
    const tokens = page.locator(`tr[data-mint="${mint}"] [data-testid=position-tokens]`);
    await tokens.waitFor();
    const held = await tokens.getAttribute("data-units");
    await e2e.post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.01" });
    const t3 = performance.now();
    await page
      .locator(`tr[data-mint="${mint}"] [data-testid=position-tokens]:not([data-units="${held}"])`)
      .waitFor();
    position.push(performance.now() - t3);
    await context.close();
  }
  {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${base}/console/`);
    await page.fill("input[name=key]", apiKey);
    await page.click("button[type=submit]");
    await page.locator("[data-testid=sol-total] .value").waitFor();
    fromEvent = await eventToPage(e2e, page, base, apiKey, mint, LIVE);
    await context.close();
  }
} finally {
  await browser.close();
  e2e.app.server.closeAllConnections();
  await e2e.close();
}
console.log(
  JSON.stringify(
    {
      rounds: ROUNDS,
      first_load_bytes_gzip: bytes,
      to_sign_in_form_ms_median: Math.round(median(form)),
      dom_content_loaded_ms_median: Math.round(median(dcl)),
      first_contentful_paint_ms_median: Math.round(median(fcp)),
      sign_in_to_overview_numbers_ms_median: Math.round(median(overview)),
      trade_answer_to_row_on_page_ms_median: Math.round(median(live)),
      trade_answer_to_position_row_ms_median: Math.round(median(position)),
      live_rounds: LIVE,
      execution_event_to_row_ms: {
        p50: Math.round(median(fromEvent.execution)),
        p99: Math.round(p99(fromEvent.execution)),
      },
      position_event_to_row_ms: {
        p50: Math.round(median(fromEvent.position)),
        p99: Math.round(p99(fromEvent.position)),
      },
    },
    null,
    2,
  ),
);
