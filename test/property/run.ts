/**
 * Issue 30 item 6: the property run. Requests generated from the OpenAPI document (openapi-requests.ts) are
 * sent to an in-process app; the findings are what breaks the properties: a 5xx other than a documented
 * upstream 502/503, a request the document refuses that is not refused with 400, and a request it allows
 * that is refused for its shape (a 400 whose code is not one of the state codes below). Answers are checked
 * against the document by the test app itself (test/helpers/openapi-validate.ts).
 */
import type { FastifyInstance } from "fastify";
import fc from "fast-check";
import { allowedRequests, operationsOf, refusedRequests, type GeneratedRequest } from "./openapi-requests.js";

type Json = Record<string, unknown>;

/**
 * Routes left out: ones that change what every later request sees (an account freeze stops every write), a
 * per-IP setup limit, the WebSocket upgrade.
 */
export const EXCLUDED: ReadonlySet<string> = new Set([
  "POST /v1/laser/setup",
  "POST /v1/account/freeze",
  "POST /v1/account/unfreeze",
  "GET /v1/stream",
]);

/**
 * 400 codes a request the document allows may still get: they depend on what exists (a mint, a balance, a
 * pool, a wallet of the key) or on a rule across fields or values that JSON Schema in the document does not state.
 */
export const STATE_CODES: ReadonlySet<string> = new Set([
  "trade.simulation_failed",
  "create.simulation_failed",
  "execution.insufficient_sol",
  "launch.mint_not_found",
  "launch.unsupported_mint",
  "launch.not_launch_token",
  "launch.not_migrated",
  "launch.pool_not_found",
  "launch.not_swap_pool",
  "launch.pool_not_sol_quoted",
  "launch.pool_mint_mismatch",
  "launch.curve_not_sol_quoted",
  "trade.no_token_balance",
  "trade.token_balance_too_low",
  "trade.curve_complete",
  "trade.exceeds_reserves",
  "trade.trade_too_small",
  "trade.empty_pool",
  "trade.insufficient_quote_reserves",
  "trade.percent_zero_units",
  "sol.low_balance",
  "sol.new_account_rent",
  "sol.new_account_rent_split",
  "sol.destination_reserved",
  "sol.split_destination_reserved",
  "consolidate.low_balance",
  "consolidate.destination_is_source",
  "transfer.destination_is_source",
  "split.destination_is_source",
  "transfer.no_source_account",
  "transfer.low_token_balance",
  "split.amounts_exceed",
  "split.not_consumed",
  "split.min_lamport",
  "cashback.wallet_selection",
  "wallets.none",
  "wallets.private_key_mismatch",
  "keys.wallet_not_owned",
  "keys.root_not_revocable",
  "keys.root_not_freezable",
  "events.webhook_url_private",
  "events.webhook_url_unresolvable",
  "execution.transaction_too_large",
  "fees.tip_without_tip_accounts",
  "watch.disabled",
  "orders.no_warm_state",
  // The bounds of priority_fee and tip are the deployment's (PRIORITY_FEE_MAX_SOL, TIP_MAX_SOL).
  "fees.priority_fee_too_high",
  "fees.tip_too_high",
]);

/**
 * Findings the document does not state yet ("variant METHOD /path status code"), each a rule the parser
 * enforces and the document's JSON Schema lacks (or a deliberate answer: a wallet path that is no address is a
 * 404 wallet not found). A run fails on any finding not listed here.
 */
export const KNOWN_GAPS: ReadonlySet<string> = new Set([
  // Last-Event-ID wins over ?after= (an EventSource resumes with it): a broken ?after= beside it is not read.
  // OpenAPI 3.0 states each parameter alone: "?after= is free when Last-Event-ID is given" is a rule across two.
  "refused GET /v1/events 200 -",
  // The executions and positions cursors are opaque base64url text: the document states their alphabet, not
  // what they decode to (a cursor is only ever one the service returned).
  "allowed GET /v1/executions 400 events.cursor_invalid",
  "allowed GET /v1/positions 400 events.cursor_invalid",
  // Rules across query parameters: OpenAPI 3.0 (and 3.1) states each parameter alone, never a rule across two of
  // them (the trade body, where JSON Schema can, states the quote's rules; the PnL period's from before to).
  "allowed GET /v1/quote 400 trade.amount_and_tokens",
  "allowed GET /v1/quote 400 trade.amount_required",
  "allowed GET /v1/quote 400 trade.amount_tokens_on_buy",
  "allowed GET /v1/quote 400 trade.mint_required",
  "allowed GET /v1/quote 400 trade.quote_side",
  "allowed GET /v1/quote 400 trade.sell_in_sol",
  "allowed GET /v1/quote 400 trade.sell_token_units",
  "allowed GET /v1/quote 400 trade.slippage_both",
  "allowed GET /v1/pnl 400 positions.range_invalid",
  // A time in the future: JSON Schema has no clock (a key's expiry shares its text with a malformed one).
  "allowed POST /v1/keys 400 keys.expires_at_invalid",
  "allowed POST /v1/orders 400 orders.expires_past",
  // One value below another: JSON Schema compares a value with constants, never with another field's value.
  "allowed POST /v1/keys 400 keys.policy_per_execution_over_daily",
  "allowed PUT /v1/keys/{id}/policy 400 keys.policy_per_execution_over_daily",
  "allowed POST /v1/orders 400 orders.initial_bounds",
  // A bundle without mint starts with its create leg, then SOL-denominated buys only: rules by a leg's position
  // (OpenAPI 3.0 has no tuple `items`/`prefixItems`, nor `contains`). With mint, the document states them.
  "allowed POST /v1/laser/bundle 400 bundle.mint_required",
  "allowed POST /v1/laser/bundle 400 bundle.new_token_legs",
  "allowed POST /v1/laser/bundle 400 bundle.sell_after_create",
  "allowed POST /v1/laser/bundle/build 400 bundle.mint_required",
  "allowed POST /v1/laser/bundle/build 400 bundle.new_token_legs",
  "allowed POST /v1/laser/bundle/build 400 bundle.sell_after_create",
  // Racing route names are the deployment's (ROUTES): with none configured any `routes` is refused.
  "allowed POST /v1/trades/execute 400 landing.no_routes",
  "allowed POST /v1/trades/build 400 landing.no_routes",
  // Base64 that decodes to something other than a signed transaction: no schema can say what bytes mean.
  "allowed POST /v1/transactions/send 400 outside.transaction_malformed",
]);

/** The key of a finding in KNOWN_GAPS. */
export const gapKey = (f: Finding): string => `${f.variant} ${f.route} ${f.status} ${f.code ?? "-"}`;

/** One broken property. */
export interface Finding {
  route: string;
  variant: "allowed" | "refused";
  status: number;
  code?: string;
  detail?: string;
  request: string;
}

/** The figures of one run. */
export interface PropertyReport {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  routes: number;
  findings: Finding[];
  /** Requests the document refuses that were sent (the rest are ones it allows). */
  refused: number;
  /** Findings listed in KNOWN_GAPS (reported, not failed). */
  known: Finding[];
}

let keySerial = 0;

/**
 * Per route, values the generator must not pick: a long-poll's wait (it would hold the run), and an
 * Idempotency-Key drawn twice (the key's first body wins: another body with it is a 422, which is the header's
 * rule working, not a finding). Each request gets a fresh key, unless the key is the value broken.
 */
function tame(req: GeneratedRequest): GeneratedRequest {
  if (
    req.headers["idempotency-key"] !== undefined &&
    req.broken?.startsWith("header.idempotency-key") !== true
  ) {
    keySerial += 1;
    req = { ...req, headers: { ...req.headers, "idempotency-key": `property-${Date.now()}-${keySerial}` } };
  }
  if (req.method === "GET" && /^\/v1\/executions\/[^/?]+(\?|$)/.test(req.url)) {
    const u = new URL(req.url, "http://x");
    if (u.searchParams.has("wait") && /^\d+$/.test(u.searchParams.get("wait")!))
      u.searchParams.set("wait", "0");
    return { ...req, url: u.pathname + u.search };
  }
  return req;
}

/**
 * Sends `runs` allowed and `runs` refused requests per route (seeded), and returns what broke the properties.
 */
export async function runProperties(
  app: FastifyInstance,
  apiKey: string,
  options: { runs: number; seed: number; onRequest?: (n: number) => void },
): Promise<PropertyReport> {
  const doc = app.swagger() as unknown as Json;
  const ops = operationsOf(doc, EXCLUDED);
  const report: PropertyReport = {
    seed: options.seed,
    requests: 0,
    byStatus: {},
    routes: ops.length,
    findings: [],
    known: [],
    refused: 0,
  };
  for (const [i, op] of ops.entries()) {
    const seed = options.seed + i;
    if (process.env.PROPERTY_TRACE === "1") process.stderr.write(`# ${op.key}\n`);
    const allowed = fc.sample(allowedRequests(doc, op, apiKey), { seed, numRuns: options.runs });
    const refused = fc
      .sample(refusedRequests(doc, op, apiKey), { seed, numRuns: options.runs * 3 })
      .filter((r): r is GeneratedRequest => r !== null)
      .slice(0, options.runs);
    for (const [variant, reqs] of [
      ["allowed", allowed],
      ["refused", refused],
    ] as const) {
      for (const raw of reqs) {
        const req = tame(raw);
        const t0 = Date.now();
        if (process.env.PROPERTY_TRACE === "1") process.stderr.write(`> ${req.method} ${req.url}\n`);
        const res = await app.inject({
          method: req.method as "GET",
          url: req.url,
          headers: req.headers,
          ...(req.payload !== undefined ? { payload: req.payload } : {}),
        });
        if (process.env.PROPERTY_TRACE === "1")
          process.stderr.write(`< ${res.statusCode} ${Date.now() - t0} ms ${res.body.slice(0, 120)}\n`);
        report.requests += 1;
        if (variant === "refused") report.refused += 1;
        options.onRequest?.(report.requests);
        report.byStatus[res.statusCode] = (report.byStatus[res.statusCode] ?? 0) + 1;
        let body: { code?: string; detail?: string } = {};
        try {
          body = res.json();
        } catch {
          // Not JSON (a page): the status decides.
        }
        const finding = (): Finding => ({
          route: op.key,
          variant,
          status: res.statusCode,
          ...(body.code !== undefined ? { code: body.code } : {}),
          ...(body.detail !== undefined ? { detail: body.detail.slice(0, 160) } : {}),
          request: `${req.method} ${req.url} ${(req.payload ?? "").slice(0, 200)}${req.broken !== undefined ? ` [${req.broken}]` : ""}`,
        });
        const upstream = res.statusCode === 502 || res.statusCode === 503;
        if (res.statusCode >= 500 && !(upstream && op.responses.includes(String(res.statusCode))))
          report.findings.push(finding());
        else if (variant === "refused" && res.statusCode !== 400) report.findings.push(finding());
        else if (variant === "allowed" && res.statusCode === 400 && !STATE_CODES.has(body.code ?? ""))
          report.findings.push(finding());
      }
    }
  }
  report.known = report.findings.filter((f) => KNOWN_GAPS.has(gapKey(f)));
  report.findings = report.findings.filter((f) => !KNOWN_GAPS.has(gapKey(f)));
  return report;
}
