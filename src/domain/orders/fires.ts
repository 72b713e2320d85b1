/**
 * GET /v1/orders/{id}/fires: what a standing order decided at each of its triggers, newest first in cursor pages.
 * A copy order has one record per followed trade (their wallet, signature and sizes, our amount, the decision:
 * sent, skipped with the reason, refused by the key's policy, dropped when its process ended before the send,
 * or claimed with its send not settled); a snipe has
 * one per token it fired on (sent, refused, failed before anything was sent, dropped, or claimed). Other kinds fire once: their executions are the order's `execution_ids`.
 */
import { badRequest, POSITIONS } from "../../core/errors.js";
import { solText } from "../../core/amounts.js";
import { parseQueryInt } from "../../core/request-fields.js";
import type { CopyFireRecord, FirePage, OrderFireRecord, Store } from "../../store/index.js";
import { ORDER_RULES as R } from "./texts.js";

/** What a trigger came to (the record's `decision`). */
export const FIRE_DECISIONS = ["sent", "skipped", "refused", "failed", "dropped", "claimed"] as const;

/** One record as the API shows it. */
export interface FireView {
  at: string;
  mint: string;
  side: "buy" | "sell";
  signature: string | null;
  followed_wallet: string | null;
  their_sol: string | null;
  their_tokens: string | null;
  our_amount: string | null;
  decision: (typeof FIRE_DECISIONS)[number];
  reason: string | null;
  execution_id: string | null;
  execution_state: string | null;
}

const SENT = new Set(["filled", "pending", "failed"]);

/**
 * A fire's decision from its stored outcome (copy and snipe records share the form; null: claimed, not settled,
 * or a snipe row from before outcomes were kept, whose execution says it was sent).
 */
function decisionOf(
  o: string | null,
  executionId: string | null,
): Pick<FireView, "decision" | "reason" | "execution_state"> {
  if (o === null)
    return { decision: executionId === null ? "claimed" : "sent", reason: null, execution_state: null };
  const colon = o.indexOf(":");
  const head = colon < 0 ? o : o.slice(0, colon);
  const reason = colon < 0 ? null : o.slice(colon + 1);
  if (head === "skipped") return { decision: "skipped", reason, execution_state: null };
  if (head === "refused") return { decision: "refused", reason, execution_state: null };
  // Its process ended between claim and send: nothing was recorded, so nothing was sent.
  if (head === "dropped") return { decision: "dropped", reason, execution_state: null };
  if (executionId !== null && SENT.has(head))
    return { decision: "sent", reason: null, execution_state: head };
  // Failed before anything was sent (a build or a balance check): no execution to read.
  return { decision: "failed", reason, execution_state: null };
}

/** A copy fire as shown. */
export function copyFireView(f: CopyFireRecord): FireView {
  return {
    at: new Date(f.atMs).toISOString(),
    mint: f.mint,
    side: f.side,
    signature: f.signature,
    followed_wallet: f.trader,
    their_sol: f.theirLamports === null ? null : solText(f.theirLamports),
    their_tokens: f.theirUnits === null ? null : f.theirUnits.toString(),
    our_amount: f.ourAmount,
    ...decisionOf(f.outcome, f.executionId),
    execution_id: f.executionId,
  };
}

/** A snipe fire as shown. */
export function snipeFireView(f: OrderFireRecord): FireView {
  const refused = f.refused as { rule?: unknown } | null;
  const base = {
    at: new Date(f.atMs).toISOString(),
    mint: f.mint,
    side: "buy" as const,
    signature: null,
    followed_wallet: null,
    their_sol: null,
    their_tokens: null,
    our_amount: solText(f.lamports),
    execution_id: f.executionId,
  };
  if (refused !== null)
    return {
      ...base,
      decision: "refused",
      reason: typeof refused.rule === "string" ? refused.rule : null,
      execution_state: null,
    };
  return { ...base, ...decisionOf(f.outcome, f.executionId) };
}

/** The cursor of the record after which the next page starts: base64url of `atMs:key`. */
function fireCursor(atMs: number, key: string): string {
  return Buffer.from(`${atMs}:${key}`).toString("base64url");
}

function parseFireCursor(after: unknown): FirePage["after"] {
  if (after === undefined || after === "") return undefined;
  if (typeof after !== "string" || after.length > 200) throw badRequest(POSITIONS.cursorInvalid);
  const text = Buffer.from(after, "base64url").toString();
  const m = /^(\d{1,15}):([1-9A-HJ-NP-Za-km-z]{1,100})$/.exec(text);
  if (m === null) throw badRequest(POSITIONS.cursorInvalid);
  return { atMs: Number(m[1]), key: m[2] as string };
}

/** A page of an order's fire records (the order is the caller's, found and checked by the route's service). */
export async function fireRecords(
  store: Pick<Store, "copyFirePage" | "orderFirePage">,
  order: { id: string; kind: string },
  query: Record<string, unknown>,
): Promise<{ fires: FireView[]; next_cursor: string | null }> {
  if (order.kind !== "copy" && order.kind !== "snipe") throw badRequest(R.firesKind(order.kind));
  const limit = parseQueryInt(query.limit, POSITIONS.limitInvalid, { min: 1, max: 500 }) ?? 100;
  const after = parseFireCursor(query.after);
  // One more than the page tells whether another follows.
  const page = { limit: limit + 1, ...(after !== undefined ? { after } : {}) };
  if (order.kind === "copy") {
    const rows = await store.copyFirePage(order.id, page);
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return {
      fires: rows.slice(0, limit).map(copyFireView),
      next_cursor: last === undefined ? null : fireCursor(last.atMs, last.signature),
    };
  }
  const rows = await store.orderFirePage(order.id, page);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    fires: rows.slice(0, limit).map(snipeFireView),
    next_cursor: last === undefined ? null : fireCursor(last.atMs, last.mint),
  };
}
