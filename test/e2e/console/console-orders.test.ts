/**
 * The console in a real browser, second part: a take-profit / stop-loss bracket placed from a position row (the
 * levels confirmed first), listed live on the orders page and cancelled there; dialogs closed with Escape; the
 * market stream reconnecting after the server closes it; the buy quote in the mint's own decimals; a trade-only
 * key signing in and trading while each page names the scope it lacks; at a 375 px phone width, the positions,
 * orders and executions lists as cards, usable from the keyboard. On SQLite, and on PostgreSQL when
 * TEST_DATABASE_URL is set. One browser for the file; the tests of an engine run in order.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { E2eOptions } from "../../helpers/e2e.js";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../../helpers/pg.js";
import { useE2e } from "../../helpers/use-e2e.js";
import { buildConsole, chromiumPath, launchBrowser } from "./browser.js";

const maybe = chromiumPath === undefined ? describe.skip : describe;

interface Order {
  id: string;
  state: string;
  triggers: Record<string, { price?: string }>;
}

maybe("console orders, reconnects and scopes in the browser", () => {
  let browser: Browser;
  const consoleDir = chromiumPath !== undefined ? buildConsole() : undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  describe("on SQLite", () => suite({ consoleDir }, () => browser));
  if (TEST_DATABASE_URL !== undefined) {
    const schema = freshSchemaName("console_orders");
    describe("on PostgreSQL", () =>
      suite({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema, consoleDir }, () => browser));
    afterAll(() => dropSchema(TEST_DATABASE_URL!, schema));
  }
  if (consoleDir !== undefined) afterAll(() => rmSync(dirname(consoleDir), { recursive: true, force: true }));
});

function suite(options: E2eOptions, launched: () => Browser): void {
  const e2e = useE2e({ warm: true, market: true, ...options });
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let key: string;
  let wallet: string;
  let mint: string;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    base = await e2e.app.listen({ port: 0, host: "127.0.0.1" });
    ({ apiKey: key, wallet } = await e2e.setup());
    mint = e2e.localnet.admin.createToken().mint;
    const r = await e2e.post(key, "/v1/trades/execute", { action: "buy", mint, amount: "0.2" });
    expect(r.statusCode, r.body).toBe(200);
    context = await launched().newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
    });
    await signIn(page, base, key);
  });
  afterAll(async () => {
    await context?.close();
    e2e.app.server.closeAllConnections();
  });

  it("a bracket from a position row: the levels shown first, then placed, listed and cancelled", async () => {
    await page.goto(`${base}/console/#/positions`);
    const row = page.locator(`tr[data-mint="${mint}"]`);
    await row.locator("button", { hasText: "TP/SL" }).click();
    await page.fill("dialog input[name=take_profit]", "40");
    await page.fill("dialog input[name=stop_loss]", "-25");
    await page.click("dialog >> text=Preview levels");
    const preview = page.locator("[data-testid=bracket-preview]");
    await preview.waitFor();
    // The same dry run from the API: the levels the page confirms are the ones the service would place.
    const dry = (
      await e2e.post(key, "/v1/orders", {
        kind: "bracket",
        mint,
        wallet,
        amount: "100%",
        take_profit: { percent: "40" },
        stop_loss: { percent: "-25" },
        dry_run: true,
      })
    ).json<{ order: Order }>();
    expect(await preview.locator("[data-testid=level-take_profit]").textContent()).toBe(
      `≥ ${dry.order.triggers.take_profit!.price} SOL/token`,
    );
    expect(await preview.locator("[data-testid=level-stop_loss]").textContent()).toBe(
      `≤ ${dry.order.triggers.stop_loss!.price} SOL/token`,
    );
    await page.click("dialog >> text=Place bracket");
    await page.locator("[data-testid=bracket-placed]").waitFor();
    await page.click("dialog >> text=Close");
    const orders = (await e2e.get(key, "/v1/orders")).json<{ orders: Order[] }>().orders;
    expect(orders.length).toBe(1);
    const placed = orders[0]!;
    expect(placed.state).toBe("open");
    expect(placed.triggers.take_profit!.price).toBe(dry.order.triggers.take_profit!.price);

    await page.goto(`${base}/console/#/orders`);
    const listed = page.locator(`tr[data-order="${placed.id}"]`);
    await listed.locator("[data-testid=order-state]", { hasText: "open" }).waitFor();
    expect(await listed.locator("[data-testid=level-stop_loss]").textContent()).toBe(
      `≤ ${dry.order.triggers.stop_loss!.price} SOL/token`,
    );
    await listed.locator("button", { hasText: "Cancel" }).click();
    await listed.locator("[data-testid=order-state]", { hasText: "cancelled" }).waitFor();
    expect((await e2e.get(key, `/v1/orders/${placed.id}`)).json<Order>().state).toBe("cancelled");
  });

  it("an order placed elsewhere appears on the orders page without a reload (order.created)", async () => {
    await page.goto(`${base}/console/#/orders`);
    await page.locator("[data-testid=feed-state]", { hasText: "live" }).waitFor();
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 5));
    const r = await e2e.post(key, "/v1/orders", {
      kind: "take_profit",
      mint,
      percent: "80",
    });
    expect(r.statusCode, r.body).toBe(200);
    const id = r.json<Order>().id;
    await page.locator(`tr[data-order="${id}"] [data-testid=order-state]`, { hasText: "open" }).waitFor();
    // Cancelled elsewhere: the row follows (order.cancelled).
    const cancelled = await e2e.app.inject({
      method: "DELETE",
      url: `/v1/orders/${id}`,
      headers: { "x-api-key": key },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await page
      .locator(`tr[data-order="${id}"] [data-testid=order-state]`, { hasText: "cancelled" })
      .waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(5);
  });

  it("Escape closes a dialog, and focus is visible on the keyboard's target", async () => {
    await page.goto(`${base}/console/#/positions`);
    const button = page.locator(`tr[data-mint="${mint}"] button`, { hasText: "TP/SL" });
    await button.focus();
    await page.keyboard.press("Enter");
    await page.locator("dialog[open]").waitFor();
    await page.keyboard.press("Escape");
    await page.locator("dialog").waitFor({ state: "detached" });
    // Tab from the top of the page reaches the navigation first, with a visible outline.
    await page.goto(`${base}/console/#/overview`);
    await page.locator("nav[aria-label=pages]").waitFor();
    await page.keyboard.press("Tab");
    const focused = (await page.evaluate(`(() => {
      const el = document.activeElement;
      return { text: el.textContent, outline: getComputedStyle(el).outlineStyle };
    })()`)) as { text: string; outline: string };
    expect(focused.text).toBe("Overview");
    expect(focused.outline).toBe("solid");
  });

  it("the buy quote shows whole tokens with the mint's own decimals", async () => {
    await page.goto(`${base}/console/#/positions`);
    const balances = (await e2e.get(key, `/v1/wallets/${wallet}/balances`)).json<{
      tokens: { mint: string; decimals: number }[];
    }>();
    const decimals = balances.tokens.find((t) => t.mint === mint)!.decimals;
    await page.fill("form[aria-label=buy] input[name=mint]", mint);
    await page.fill("form[aria-label=buy] input[name=amount]", "0.01");
    await page.click("form[aria-label=buy] button[type=submit]");
    const quote = page.locator("[data-testid=buy-quote]");
    await quote.waitFor();
    expect(await quote.getAttribute("data-decimals")).toBe(String(decimals));
    const q = (await e2e.get(key, `/v1/quote?mint=${mint}&side=buy&amount=0.01`)).json<{
      tokens_out: string;
    }>();
    expect(await quote.locator("[data-testid=buy-tokens-out]").textContent()).toBe(
      wholeTokens(BigInt(q.tokens_out), decimals, 4),
    );
    await page.keyboard.press("Escape");
    await page.locator("dialog").waitFor({ state: "detached" });
    // A mint of 9 decimals (the localnet's launch mints all have 6): the same page divides by 10^9.
    await page.route("**/v1/quote?*amount_tokens=1*", async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as Record<string, unknown>;
      await route.fulfill({ response: res, json: { ...body, amount_units_text: "1000000000" } });
    });
    await page.click("form[aria-label=buy] button[type=submit]");
    await quote.waitFor();
    expect(await quote.getAttribute("data-decimals")).toBe("9");
    expect(await quote.locator("[data-testid=buy-tokens-out]").textContent()).toBe(
      wholeTokens(BigInt(q.tokens_out), 9, 4),
    );
    await page.unroute("**/v1/quote?*amount_tokens=1*");
    await page.keyboard.press("Escape");
  });

  it("the market stream reconnects after the server closes it and follows the same mint again", async () => {
    await page.goto(`${base}/console/#/market`);
    const state = page.locator("[data-testid=market-state]");
    await state.locator("text=live").waitFor();
    await page.fill("main form input[name=mint]", mint);
    await page.click("main form button[type=submit]");
    await page.locator(".chip[data-subscribed]").waitFor();
    // The server ends every stream (as a restart behind a proxy would).
    const server = (
      e2e.app as unknown as { websocketServer: { clients: Set<{ close(c: number, r: string): void }> } }
    ).websocketServer;
    for (const c of server.clients) c.close(1012, "restart");
    await page.locator("[data-testid=market-state]", { hasText: "back after close 1012: restart" }).waitFor();
    expect(await state.getAttribute("data-phase")).toBe("live");
    // Subscribed again on the new connection: a trade of the mint reaches the list.
    await page.locator(".chip[data-subscribed]").waitFor();
    const r = await e2e.post(key, "/v1/trades/execute", { action: "buy", mint, amount: "0.01" });
    expect(r.statusCode, r.body).toBe(200);
    await page.locator("[data-testid=market] li", { hasText: "buy" }).first().waitFor();
    // The positions page values its rows from the same stream, and shows its state too.
    await page.goto(`${base}/console/#/positions`);
    await page.locator("[data-testid=prices-state][data-phase=live]").waitFor();
    for (const c of server.clients) c.close(1012, "restart");
    await page.locator("[data-testid=prices-state]", { hasText: "back after close 1012" }).waitFor();
  });

  it("a trade-only key signs in; pages name the missing scope; it sells by mint from the positions page", async () => {
    const created = await e2e.post(key, "/v1/keys", { name: "bot", scopes: ["trade"] });
    expect(created.statusCode, created.body).toBe(201);
    const botKey = created.json<{ api_key: string }>().api_key;
    const bot = await launched().newContext({ viewport: { width: 1280, height: 800 } });
    const p = await bot.newPage();
    try {
      await signIn(p, base, botKey);
      const notice = p.locator("[data-testid=missing-scope]").first();
      await notice.waitFor();
      expect(await notice.getAttribute("data-scope")).toBe("read");
      await p.locator("[data-testid=feed-state]", { hasText: "lacks" }).waitFor();
      await p.goto(`${base}/console/#/keys`);
      await p.locator("[data-testid=missing-scope][data-scope=keys]").waitFor();
      await p.goto(`${base}/console/#/positions`);
      await p.locator("[data-testid=missing-scope][data-scope=read]").waitFor();
      // A buy: the quote is refused for the scope (said in the dialog), the trade is not.
      const held = await e2e.tokenBalance(wallet, mint);
      await p.fill("form[aria-label=buy] input[name=mint]", mint);
      await p.fill("form[aria-label=buy] input[name=amount]", "0.01");
      await p.click("form[aria-label=buy] button[type=submit]");
      await p.locator("dialog [data-testid=missing-scope][data-scope=read]").waitFor();
      await p.click("dialog button.danger");
      await p.locator("[data-testid=buy-result]").waitFor();
      expect(await e2e.tokenBalance(wallet, mint)).toBeGreaterThan(held);
      await p.keyboard.press("Escape");
      await p.locator("dialog").waitFor({ state: "detached" });
      const before = await e2e.tokenBalance(wallet, mint);
      await p.fill("form[aria-label=sell] input[name=mint]", mint);
      await p.selectOption("form[aria-label=sell] select[name=percent]", "50");
      await p.click("form[aria-label=sell] button[type=submit]");
      await p.locator("[data-testid=sell-unquoted]").waitFor();
      await p.click("dialog button.danger");
      await p.locator("[data-testid=sell-result]").waitFor();
      expect(await e2e.tokenBalance(wallet, mint)).toBe(before - (before * 50n) / 100n);
    } finally {
      await bot.close();
    }
  });

  it("no page is wider than a 375 px phone screen, and none broke the CSP", async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const path of [
      "overview",
      "positions",
      "orders",
      "executions",
      "wallets",
      "keys",
      "activity",
      "market",
    ]) {
      await page.goto(`${base}/console/#/${path}`);
      await page.locator("main h2").waitFor();
      await page.locator("main p.muted:has-text('Loading…')").waitFor({ state: "detached" });
      const widths = (await page.evaluate(
        "({ scroll: document.documentElement.scrollWidth, view: document.documentElement.clientWidth })",
      )) as { scroll: number; view: number };
      expect(widths.scroll, `#/${path} at 375 px`).toBeLessThanOrEqual(widths.view);
      // The wide lists are cards on a phone: no header row, each row a block, each cell under its column's
      // name, nothing scrolling sideways inside the list's frame.
      const list = { positions: "positions", orders: "orders", executions: "executions" }[path];
      if (list !== undefined) {
        await page.locator(`[data-testid=${list}] tbody tr`).first().waitFor();
        const cards = (await page.evaluate(cardsAt375(list))) as CardLayout;
        expect(cards, `#/${path} at 375 px`).toMatchObject({
          head: "none",
          rows: "block",
          unlabelled: [],
          innerScroll: false,
        });
        expect(cards.cells).toBeGreaterThan(0);
      }
    }
    // Keyboard: a position card's sell button is reached with Tab and opens its dialog with Enter.
    await page.goto(`${base}/console/#/positions`);
    await page.locator("[data-testid=positions] tbody tr").first().waitFor();
    let focused = "";
    for (let i = 0; i < 80 && focused !== "25%"; i++) {
      await page.keyboard.press("Tab");
      focused = (await page.evaluate(
        "document.activeElement && document.activeElement.closest('[data-testid=positions]') ? document.activeElement.textContent : ''",
      )) as string;
    }
    expect(focused).toBe("25%");
    await page.keyboard.press("Enter");
    await page.locator("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.locator("dialog").waitFor({ state: "detached" });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(cspViolations).toEqual([]);
  });
}

/** What `cardsAt375` reads of a list's layout. */
interface CardLayout {
  head: string;
  rows: string;
  cells: number;
  unlabelled: string[];
  innerScroll: boolean;
}

/**
 * A page expression reading the layout of the list `testid`: its header's display, its first row's display,
 * how many cells show a label, the cells whose label is not shown, and whether its frame scrolls sideways.
 */
function cardsAt375(testid: string): string {
  return `(() => {
    const table = document.querySelector("[data-testid=${testid}]");
    const wrap = table.closest(".table-wrap") ?? table.parentElement;
    const cells = [...table.querySelectorAll("tbody td[data-label]")];
    return {
      head: getComputedStyle(table.querySelector("thead")).display,
      rows: getComputedStyle(table.querySelector("tbody tr")).display,
      cells: cells.length,
      unlabelled: cells
        .filter((td) => getComputedStyle(td, "::before").content !== JSON.stringify(td.dataset.label))
        .map((td) => td.dataset.label),
      innerScroll: wrap.scrollWidth > wrap.clientWidth,
    };
  })()`;
}

/** Signs in on the form with `apiKey`. */
async function signIn(page: Page, base: string, apiKey: string): Promise<void> {
  await page.goto(`${base}/console/`);
  await page.fill("input[name=key]", apiKey);
  await page.click("button[type=submit]");
  await page.locator("nav[aria-label=pages]").waitFor();
}

/** Atomic units as whole tokens, as the console prints them (up to `shown` decimals, thousands commas). */
function wholeTokens(units: bigint, decimals: number, shown: number): string {
  const scale = 10n ** BigInt(decimals);
  const whole = (units / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = (units % scale).toString().padStart(decimals, "0").slice(0, shown).replace(/0+$/, "");
  return frac === "" ? whole : `${whole}.${frac}`;
}
