/**
 * The operator console in a real browser (issue 33) against the app and the in-process localnet: a wrong key's
 * error detail, sign-in and where the key is kept, the overview's numbers, a live execution and position, buy
 * and sell 50 % from the page with their quotes, the account freeze refusing a trade, the market stream, no CSP
 * violation and no request to another origin. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set. One
 * browser for the file; the tests of an engine run in order on one page.
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

/** Lamports as the console prints them (up to `shown` decimals, trailing zeros dropped, thousands commas). */
function solText(lamports: bigint, shown: number): string {
  const whole = (lamports / 1_000_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = (lamports % 1_000_000_000n).toString().padStart(9, "0").slice(0, shown).replace(/0+$/, "");
  return frac === "" ? whole : `${whole}.${frac}`;
}

/** Signed, as the console prints PnL: a plus on gains. */
function signedText(lamports: bigint): string {
  return lamports < 0n ? `-${solText(-lamports, 4)}` : `${lamports > 0n ? "+" : ""}${solText(lamports, 4)}`;
}

interface Position {
  tokens_held: string;
  cost_basis_lamports: string;
  realized_pnl_lamports: string;
}

// One browser for the file, a fresh context (cookies, storage) per database engine.
maybe("console in the browser", () => {
  let browser: Browser;
  // Built once while collecting (synchronous, ~0.5 s), into a directory of its own the apps below serve.
  const consoleDir = chromiumPath !== undefined ? buildConsole() : undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  consoleSuite("SQLite", { consoleDir }, () => browser);
  if (TEST_DATABASE_URL !== undefined) {
    const schema = freshSchemaName("console");
    consoleSuite(
      "PostgreSQL",
      { databaseUrl: TEST_DATABASE_URL, pgSchema: schema, consoleDir },
      () => browser,
    );
    afterAll(() => dropSchema(TEST_DATABASE_URL!, schema));
  }
  if (consoleDir !== undefined) {
    afterAll(() => rmSync(dirname(consoleDir), { recursive: true, force: true }));
  }
});

function consoleSuite(engine: string, options: E2eOptions, launched: () => Browser): void {
  describe(`on ${engine}`, () => suite(options, launched));
}

function suite(options: E2eOptions, launched: () => Browser): void {
  const e2e = useE2e({ market: true, ...options });
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let key: string;
  let wallet: string;
  let mint: string;
  const cspViolations: string[] = [];
  const elsewhere: string[] = [];

  beforeAll(async () => {
    base = await e2e.app.listen({ port: 0, host: "127.0.0.1" });
    ({ apiKey: key, wallet } = await e2e.setup());
    mint = e2e.localnet.admin.createToken().mint;
    context = await launched().newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.on("request", (r) => {
      if (!r.url().startsWith(`${base}/`) && !r.url().startsWith("data:")) elsewhere.push(r.url());
    });
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
    });
  });
  afterAll(async () => {
    await context?.close();
    e2e.app.server.closeAllConnections();
  });

  const buy = async (sol: string) => {
    const r = await e2e.post(key, "/v1/trades/execute", { action: "buy", mint, amount: sol });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<{ signature: string }>();
  };

  it("a wrong key shows the API's error detail", async () => {
    await page.goto(`${base}/console/`);
    await page.fill("input[name=key]", "lt_not-a-real-key");
    await page.click("button[type=submit]");
    const expected = (await e2e.get("lt_not-a-real-key", "/v1/wallets?limit=1")).json<{ detail: string }>()
      .detail;
    const alert = page.locator("[role=alert]");
    await alert.waitFor();
    expect(await alert.textContent()).toContain(expected);
    expect(await alert.textContent()).toContain("401");
  });

  it("signs in; the key is in no cookie and no localStorage, only this tab's sessionStorage", async () => {
    await page.fill("input[name=key]", key);
    await page.click("button[type=submit]");
    await page.locator("nav[aria-label=pages]").waitFor();
    expect(await context.cookies()).toEqual([]);
    // A string: the page's globals (localStorage, document) are not in this file's Node types.
    const storage = (await page.evaluate(`({
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      cookie: document.cookie,
    })`)) as { local: string; session: string; cookie: string };
    expect(storage.local).not.toContain(key);
    expect(storage.local).toBe("{}");
    expect(storage.cookie).toBe("");
    expect(storage.session).toContain(key);
  });

  it("the overview shows the SOL the API reports across wallets", async () => {
    await page.goto(`${base}/console/#/overview`);
    const balances = (await e2e.get(key, `/v1/wallets/${wallet}/balances`)).json<{ lamports: string }>();
    const card = page.locator("[data-testid=sol-total] .value");
    await card.waitFor();
    expect(await card.textContent()).toBe(solText(BigInt(balances.lamports), 4));
    expect(await card.textContent()).toBe("10");
  });

  it("a new execution appears on the executions page without a reload", async () => {
    await page.goto(`${base}/console/#/executions`);
    await page.locator("[data-testid=feed-state]", { hasText: "live" }).waitFor();
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
    const { signature } = await buy("0.05");
    const rows = (await e2e.get(key, `/v1/executions?signature=${signature}`)).json<{
      executions: { id: string }[];
    }>();
    const id = rows.executions[0]!.id;
    const row = page.locator(`tr[data-execution="${id}"]`);
    await row.locator(".status", { hasText: "confirmed" }).waitFor();
    expect(await row.textContent()).toContain("bonding_curve");
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(42);
  });

  it("the position shows the ledger's cost basis", async () => {
    await page.goto(`${base}/console/#/positions`);
    const p = (await e2e.get(key, `/v1/positions/${wallet}/${mint}`)).json<Position>();
    const cost = page.locator(`tr[data-mint="${mint}"] [data-testid=position-cost]`);
    await cost.waitFor();
    expect(await cost.textContent()).toBe(solText(BigInt(p.cost_basis_lamports), 4));
  });

  it("a buy made elsewhere moves the position row without a reload (pushed, not polled)", async () => {
    await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 7));
    await buy("0.02");
    const p = (await e2e.get(key, `/v1/positions/${wallet}/${mint}`)).json<Position>();
    await page.locator(`tr[data-mint="${mint}"] [data-units="${p.tokens_held}"]`).waitFor();
    const cost = page.locator(`tr[data-mint="${mint}"] [data-testid=position-cost]`);
    expect(await cost.textContent()).toBe(solText(BigInt(p.cost_basis_lamports), 4));
    expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(7);
  });

  it("buys from the page: the quote first, then the trade, and the position row follows", async () => {
    await page.goto(`${base}/console/#/positions`);
    await page.fill("form[aria-label=buy] input[name=mint]", mint);
    await page.fill("form[aria-label=buy] input[name=amount]", "0.03");
    await page.click("form[aria-label=buy] button[type=submit]");
    const quote = (await e2e.get(key, `/v1/quote?mint=${mint}&side=buy&amount=0.03`)).json<{
      sol_in_lamports: string;
    }>();
    await page.locator("[data-testid=buy-quote]").waitFor();
    expect(await page.locator("[data-testid=buy-quote]").textContent()).toContain(
      solText(BigInt(quote.sol_in_lamports), 9),
    );
    const before = await e2e.tokenBalance(wallet, mint);
    await page.click("dialog button.danger");
    await page.locator("[data-testid=buy-result]").waitFor();
    const after = await e2e.tokenBalance(wallet, mint);
    expect(after).toBeGreaterThan(before);
    await page.click("dialog button:not(.danger)");
    await page.locator(`tr[data-mint="${mint}"] [data-units="${after}"]`).waitFor();
  });

  it("sell 50% shows the quote, then executes on the sandbox", async () => {
    const before = await e2e.tokenBalance(wallet, mint);
    expect(before).toBeGreaterThan(0n);
    await page.goto(`${base}/console/#/positions`);
    const row = page.locator(`tr[data-mint="${mint}"]`);
    await row.locator("button", { hasText: "50%" }).click();
    const quote = (await e2e.get(key, `/v1/quote?mint=${mint}&side=sell&amount=${before / 2n}`)).json<{
      sol_out_lamports: string;
    }>();
    const solOut = page.locator("[data-testid=quote-sol-out]");
    await solOut.waitFor();
    expect(await solOut.textContent()).toBe(solText(BigInt(quote.sol_out_lamports), 9));
    await page.click("dialog button.danger");
    await page.locator("[data-testid=sell-result]").waitFor();
    expect(await e2e.tokenBalance(wallet, mint)).toBe(before - (before * 50n) / 100n);
    await page.click("dialog button:not(.danger)");
    // The realized PnL of the sell reaches the row (position.updated), equal to the ledger's.
    const p = (await e2e.get(key, `/v1/positions/${wallet}/${mint}`)).json<Position>();
    expect(BigInt(p.tokens_held)).toBe(before - (before * 50n) / 100n);
    expect(p.realized_pnl_lamports).not.toBe("0");
    await row
      .locator("[data-testid=position-realized]", { hasText: signedText(BigInt(p.realized_pnl_lamports)) })
      .waitFor();
  });

  it("the overview's realized PnL is the API's", async () => {
    await page.goto(`${base}/console/#/overview`);
    const pnl = (await e2e.get(key, "/v1/pnl")).json<{ total: { realized_pnl_lamports: string } }>();
    const realized = page.locator("[data-testid=realized] .value");
    await realized.waitFor();
    expect(await realized.textContent()).toBe(signedText(BigInt(pnl.total.realized_pnl_lamports)));
    await page.locator(".chart canvas").waitFor();
  });

  it("wallets: create one (its secret shown once), then delink it after seeing what it holds", async () => {
    await page.goto(`${base}/console/#/wallets`);
    await page.locator("[data-testid=wallets] tbody tr").first().waitFor();
    await page.click("text=Create a wallet");
    const secret = page.locator("dialog textarea");
    await secret.waitFor();
    expect((await secret.inputValue()).length).toBeGreaterThan(80);
    await page.click("dialog >> text=Done");
    const wallets = (await e2e.get(key, "/v1/wallets")).json<{ public_key: string; is_default: boolean }[]>();
    const created = wallets.find((w) => !w.is_default)!.public_key;
    e2e.localnet.admin.fund(created, 1_500_000_000n);
    await page.reload();
    const row = page.locator("[data-testid=wallets] tbody tr", { hasText: created.slice(0, 6) });
    await row.locator("text=Delink…").click();
    expect(await page.locator("[data-testid=delink-sol]").textContent()).toBe("1.5 SOL");
    await page.click("dialog button.danger");
    await row.waitFor({ state: "detached" });
    const after = (await e2e.get(key, "/v1/wallets")).json<{ public_key: string }[]>();
    expect(after.map((w) => w.public_key)).not.toContain(created);
  });

  it("keys: a narrower key is created, and its policy edited, from the page", async () => {
    await page.goto(`${base}/console/#/keys`);
    await page.fill("input[name=name]", "bot");
    await page.check("input[name=scope-trade]");
    await page.click("text=Create key");
    await page.locator("dialog textarea").waitFor();
    await page.click("dialog >> text=Done");
    const row = page.locator("[data-testid=keys] tbody tr", { hasText: "bot" });
    await row.locator("text=Policy…").click();
    await page.fill("dialog input[name=max_sol_per_24h]", "5");
    await page.click("dialog >> text=Save policy");
    await row.locator("code", { hasText: "max_sol_per_24h" }).waitFor();
    const keys = (await e2e.get(key, "/v1/keys")).json<{
      keys: { name: string; scopes: string[]; policy: Record<string, unknown> }[];
    }>();
    const bot = keys.keys.find((k) => k.name === "bot")!;
    expect(bot.scopes.sort()).toEqual(["read", "trade"]);
    expect(bot.policy).toEqual({ max_sol_per_24h: "5" });
  });

  it("the freeze button freezes the account: a sell from the page is refused with the API's detail", async () => {
    await page.goto(`${base}/console/#/keys`);
    await page.click("[data-testid=freeze-account]");
    await page.locator("[data-testid=account-state]", { hasText: "Account frozen" }).waitFor();
    const refused = await e2e.post(key, "/v1/trades/execute", { action: "buy", mint, amount: "0.01" });
    expect(refused.statusCode).toBe(403);
    await page.goto(`${base}/console/#/positions`);
    await page.locator(`tr[data-mint="${mint}"] button`, { hasText: "25%" }).click();
    await page.locator("[data-testid=sell-quote]").waitFor();
    await page.click("dialog button.danger");
    const alert = page.locator("dialog [role=alert]");
    await alert.waitFor();
    expect(await alert.textContent()).toContain(refused.json<{ detail: string }>().detail);
    expect(await alert.textContent()).toContain("frozen");
    await page.click("dialog button:not(.danger)");
    await page.goto(`${base}/console/#/keys`);
    await page.click("text=Unfreeze account");
    await page.locator("[data-testid=account-state]", { hasText: "not frozen" }).waitFor();
  });

  it("the activity log lists the account freeze and the refused trade", async () => {
    await page.goto(`${base}/console/#/activity`);
    const table = page.locator("[data-testid=activity]");
    await table.locator("tr", { hasText: "/v1/account/freeze" }).waitFor();
    const refused = table.locator("tr", { hasText: "/v1/trades/execute" }).filter({ hasText: "frozen" });
    expect(await refused.count()).toBeGreaterThan(0);
  });

  it("the market page opens the stream; no page broke the CSP or asked another origin", async () => {
    await page.goto(`${base}/console/#/market`);
    await page.locator("[data-testid=market-state]", { hasText: "live" }).waitFor();
    await page.fill("input[name=mint]", mint);
    await page.click("main form button[type=submit]");
    // A trade of the followed mint reaches the list (the subscription is acknowledged before the buy lands).
    await page.locator(".chip[data-subscribed]").waitFor();
    const { signature } = await buy("0.01");
    expect(signature).toBeTruthy();
    await page.locator("[data-testid=market] li", { hasText: "buy" }).first().waitFor();
    expect(cspViolations).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
}
