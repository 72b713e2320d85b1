/**
 * Issue 33: how long after the service records a trade's event its effect shows on the console's page. The
 * start is the event's own `created_at` (written in the transaction that records the fill, before it commits:
 * the earliest server-side time of the event); the end is the page's clock when the DOM changed (a
 * MutationObserver installed by the bench, no change to the console). Both clocks are the machine's wall clock
 * (same host), the page's read as `performance.timeOrigin + performance.now()`.
 */
import type { Page } from "playwright-core";
import type { E2e } from "../test/helpers/e2e.js";

/** Records, per key, when the page first showed it: `exec:<id>` confirmed rows and `units:<mint>:<units>` cells. */
const OBSERVER = `(() => {
  const seen = (window.__seen = window.__seen || {});
  const now = () => performance.timeOrigin + performance.now();
  const scan = () => {
    for (const row of document.querySelectorAll("tr[data-execution]")) {
      const status = row.querySelector(".status");
      const key = "exec:" + row.getAttribute("data-execution");
      if (status && /confirmed|finalized/.test(status.textContent || "") && !(key in seen)) seen[key] = now();
    }
    for (const cell of document.querySelectorAll("tr[data-mint] [data-testid=position-tokens]")) {
      const key = "units:" + cell.closest("tr").getAttribute("data-mint") + ":" + cell.getAttribute("data-units");
      if (!(key in seen)) seen[key] = now();
    }
  };
  new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  scan();
})()`;

/** The `created_at` (epoch ms) of the account's event of `type` for `executionId`. */
async function eventTime(e2e: E2e, apiKey: string, type: string, executionId: string): Promise<number> {
  const res = await e2e.app.inject({
    method: "GET",
    url: `/v1/events?after=0&types=${type}&limit=1000`,
    headers: { "x-api-key": apiKey, accept: "application/json" },
  });
  const events = res.json<{ events: { execution_id: string; created_at: string }[] }>().events;
  const e = events.filter((x) => x.execution_id === executionId).pop();
  if (e === undefined) throw new Error(`no ${type} event for ${executionId}`);
  return Date.parse(e.created_at);
}

/** When the page first showed `key` (polled: the console's strict CSP refuses playwright's waitForFunction). */
async function seenAt(page: Page, key: string): Promise<number> {
  const read = `(window.__seen || {})[${JSON.stringify(key)}] ?? null`;
  const until = Date.now() + 10_000;
  for (;;) {
    const at = (await page.evaluate(read)) as number | null;
    if (at !== null) return at;
    if (Date.now() > until) throw new Error(`the page never showed ${key}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * `rounds` buys on an open page: event → row of the executions page (execution.confirmed) and event → the
 * position row's tokens (position.updated, which the page answers by re-reading that position, valued).
 */
export async function eventToPage(
  e2e: E2e,
  page: Page,
  base: string,
  apiKey: string,
  mint: string,
  rounds: number,
): Promise<{ execution: number[]; position: number[] }> {
  const out = { execution: [] as number[], position: [] as number[] };
  for (const [route, series, type] of [
    ["executions", out.execution, "execution.confirmed"],
    ["positions", out.position, "position.updated"],
  ] as const) {
    await page.goto(`${base}/console/#/${route}`);
    await page.locator("[data-testid=feed-state]", { hasText: "live" }).waitFor();
    if (route === "positions") await page.locator(`tr[data-mint="${mint}"]`).waitFor();
    await page.evaluate(OBSERVER);
    for (let i = 0; i < rounds; i++) {
      const r = await e2e.post(apiKey, "/v1/trades/execute", { action: "buy", mint, amount: "0.001" });
      const { execution_id: id } = r.json<{ execution_id: string }>();
      const at = await eventTime(e2e, apiKey, type, id);
      const units =
        route === "positions"
          ? (
              await e2e.get(
                apiKey,
                `/v1/positions/${r.json<{ wallet: string }>().wallet}/${mint}?valuation=none`,
              )
            ).json<{ tokens_held: string }>().tokens_held
          : "";
      if (units === undefined) throw new Error(`no position answer after ${r.body}`);
      const shown = await seenAt(page, route === "positions" ? `units:${mint}:${units}` : `exec:${id}`);
      series.push(shown - at);
    }
  }
  return out;
}
