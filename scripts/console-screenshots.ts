/**
 * `npm run screenshots:console [-- --out <dir>]`: the console's screenshots in the README and docs/, taken from
 * the sandbox (the localnet with the service in front, as `npm start` runs it) in Debian's chromium (or
 * CHROMIUM_PATH). It builds the console, opens two positions through the API (one partly sold, so realized PnL
 * shows beside unrealized), places a take-profit / stop-loss bracket and a take-profit order, then shoots the
 * overview, positions and orders pages at 1280×800 and at a phone's width (390×844). Default out: docs/.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "playwright-core";
import { startE2e } from "../test/helpers/e2e.js";

const executable = [process.env.CHROMIUM_PATH, "/usr/bin/chromium"].find((p) => p && existsSync(p));
if (executable === undefined)
  throw new Error("no chromium: apt-get install -y chromium, or set CHROMIUM_PATH");
const outAt = process.argv.indexOf("--out");
const out = outAt > 0 ? process.argv[outAt + 1]! : fileURLToPath(new URL("../docs/", import.meta.url));
mkdirSync(out, { recursive: true });
execFileSync(process.execPath, [fileURLToPath(new URL("./console-build.mjs", import.meta.url))]);

const VIEWS = [
  { suffix: "", width: 1280, height: 800 },
  { suffix: "-phone", width: 390, height: 844 },
] as const;

/** Posts with the key; throws on anything but 200, naming the answer. */
async function post(e2e: Awaited<ReturnType<typeof startE2e>>, key: string, url: string, body: unknown) {
  const r = await e2e.post(key, url, body);
  if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
  return r;
}

/** Opens a console page and waits for what the picture must show. */
async function show(page: Page, base: string, path: string, ready: string): Promise<void> {
  await page.goto(`${base}/console/#/${path}`);
  await page.locator(ready).first().waitFor();
  await page.locator("main p.muted:has-text('Loading…')").waitFor({ state: "detached" });
  // Fonts and the chart's last frame.
  await page.waitForTimeout(300);
}

const e2e = await startE2e({ warm: true, market: true });
try {
  const base = await e2e.app.listen({ port: 0, host: "127.0.0.1" });
  const { apiKey, wallet } = await e2e.setup();
  const mints = [e2e.localnet.admin.createToken().mint, e2e.localnet.admin.createToken().mint];
  await post(e2e, apiKey, "/v1/trades/execute", { action: "buy", mint: mints[0], amount: "0.5" });
  await post(e2e, apiKey, "/v1/trades/execute", { action: "buy", mint: mints[1], amount: "0.2" });
  await post(e2e, apiKey, "/v1/trades/execute", { action: "sell", mint: mints[0], amount: "30%" });
  // Another account's buy moves the first curve up, so that position shows a gain.
  const other = await e2e.setup();
  await post(e2e, other.apiKey, "/v1/trades/execute", { action: "buy", mint: mints[0], amount: "1" });
  await post(e2e, apiKey, "/v1/orders", {
    kind: "bracket",
    mint: mints[0],
    wallet,
    amount: "100%",
    take_profit: { percent: "40" },
    stop_loss: { percent: "-25" },
  });
  await post(e2e, apiKey, "/v1/orders", { kind: "take_profit", mint: mints[1], wallet, percent: "80" });

  const browser = await chromium.launch({
    executablePath: executable,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    for (const view of VIEWS) {
      const context = await browser.newContext({ viewport: { width: view.width, height: view.height } });
      const page = await context.newPage();
      await page.goto(`${base}/console/`);
      await page.fill("input[name=key]", apiKey);
      await page.click("button[type=submit]");
      await page.locator("nav[aria-label=pages]").waitFor();
      const shots: [string, string, string][] = [
        ["overview", "overview", ".chart canvas"],
        ["positions", "positions", "[data-testid=positions] tbody tr"],
        ["orders", "orders", "[data-testid=orders] tbody tr"],
      ];
      for (const [name, path, ready] of shots) {
        await show(page, base, path, ready);
        const file = join(out, `console-${name}${view.suffix}.png`);
        await page.screenshot({ path: file });
        console.log(`wrote ${file}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  e2e.app.server.closeAllConnections();
  await e2e.close();
}
