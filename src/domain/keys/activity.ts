/** `GET /v1/activity`: the account's append-only activity log, newest first, with a cursor and filters. */
import { parseQueryInt } from "../../core/request-fields.js";
import { utcTimestamp } from "../../core/timestamps.js";
import type { ActivityQuery, ActivityRecord, Store } from "../../store/index.js";
import { CUSTODY } from "./texts.js";

/** One activity row on the wire. */
export interface ActivityView {
  id: number;
  at: string;
  key_id: number;
  key_name: string;
  method: string;
  route: string;
  wallets: string[];
  execution_id: string | null;
  status: number;
  rule: string | null;
  ip: string | null;
  refusals: number;
  /** The key a `/v1/keys/:id…` request acted on (issue 30); null for other routes and older rows. */
  target_key_id: number | null;
}

const DEFAULT_LIMIT = 50;

// Row ids and key ids are PostgreSQL integers.
const MAX_ID = 2_147_483_647;

const positiveInt = (v: unknown, text: string, max = MAX_ID): number | undefined =>
  parseQueryInt(v, text, { min: 1, max });

/** Parses `?after=&limit=&key_id=&target_key_id=&route=&status=&rule=`; 400 with a detail on bad values. */
export function parseActivityQuery(accountId: number, q: Record<string, unknown>): ActivityQuery {
  const query: ActivityQuery = {
    accountId,
    limit: positiveInt(q.limit, CUSTODY.activityLimit, 200) ?? DEFAULT_LIMIT,
  };
  const after = positiveInt(q.after, CUSTODY.activityCursor);
  if (after !== undefined) query.beforeId = after;
  const keyId = positiveInt(q.key_id, CUSTODY.activityKeyId);
  if (keyId !== undefined) query.keyId = keyId;
  const status = positiveInt(q.status, CUSTODY.activityStatus, 599);
  if (status !== undefined) query.status = status;
  const target = positiveInt(q.target_key_id, CUSTODY.activityTargetKeyId);
  if (target !== undefined) query.targetKeyId = target;
  if (typeof q.route === "string" && q.route !== "") query.route = q.route;
  if (typeof q.rule === "string" && q.rule !== "") query.rule = q.rule;
  return query;
}

function view(r: ActivityRecord): ActivityView {
  return {
    id: r.id,
    at: utcTimestamp(r.at),
    key_id: r.keyId,
    key_name: r.keyName,
    method: r.method,
    route: r.route,
    wallets: r.wallets,
    execution_id: r.executionId,
    status: r.status,
    rule: r.rule,
    ip: r.ip,
    refusals: r.refusals ?? 1,
    target_key_id: r.targetKeyId ?? null,
  };
}

/** One page of the log; `next_cursor` is the `after` value of the next page, null on the last one. */
export async function listActivity(
  deps: { store: Pick<Store, "listActivity"> },
  query: ActivityQuery,
): Promise<{ activity: ActivityView[]; next_cursor: string | null }> {
  const rows = await deps.store.listActivity({ ...query, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    activity: page.map(view),
    next_cursor: rows.length > query.limit && last !== undefined ? String(last.id) : null,
  };
}
