/**
 * One attempt of one delivery: resolve the endpoint's host once, judge every address, POST over a connection
 * pinned to the checked address, and record a coarse outcome (issue 29, finding 6). What a delivery row shows
 * must not map the network behind the URL: the error is one of five fixed texts, and the status code is kept only
 * for a completed HTTP exchange that answered 2xx, 4xx or 5xx (a 3xx is a redirect not followed, status null).
 */
import type { DeliveryRecord, WebhookRecord } from "../../store/index.js";
import { secretAad, type WebhookBaseDeps } from "./service.js";
import { signWebhook } from "./signing.js";
import { pinnedPost, type PostAnswer, type WebhookTransport } from "./pinned-request.js";
import { resolveDeliveryTarget, type TargetRefusal } from "./url-policy.js";
import type { Vault } from "../../vault/index.js";

/** The only texts `last_error` takes. */
export const DELIVERY_ERRORS = {
  connection: "connection failed",
  timeout: "timeout",
  blocked: "blocked address",
  redirect: "redirect not followed",
  http: "http error",
} as const;

/** What an attempt did, as the delivery row records it. */
export interface AttemptOutcome {
  ok: boolean;
  /** 410 Gone: the endpoint is disabled. */
  gone: boolean;
  statusCode: number | null;
  error: string | null;
}

const failed = (error: string, statusCode: number | null = null, gone = false): AttemptOutcome => ({
  ok: false,
  gone,
  statusCode,
  error,
});

/** The recorded outcome of a POST's answer, or of a delivery not attempted (blocked, unresolvable). */
export function outcomeOf(answer: PostAnswer | TargetRefusal): AttemptOutcome {
  if (answer === "blocked") return failed(DELIVERY_ERRORS.blocked);
  // A name that does not resolve reads like a refused connection: which internal names exist is not told.
  if (answer === "unresolvable") return failed(DELIVERY_ERRORS.connection);
  if (answer.kind === "timeout") return failed(DELIVERY_ERRORS.timeout);
  if (answer.kind === "failed") return failed(DELIVERY_ERRORS.connection);
  const s = answer.status;
  if (s >= 200 && s < 300) return { ok: true, gone: false, statusCode: s, error: null };
  if (s >= 300 && s < 400) return failed(DELIVERY_ERRORS.redirect);
  if (s >= 400 && s < 600) return failed(DELIVERY_ERRORS.http, s, s === 410);
  return failed(DELIVERY_ERRORS.http);
}

/** The collaborators of one attempt. */
export interface AttemptDeps extends WebhookBaseDeps {
  vault: Pick<Vault, "decryptSecret">;
  /** The POST (tests inject one); default node:http(s) pinned to the checked address. */
  transport?: WebhookTransport;
}

/** Makes one attempt of `d` to `w`'s URL; never rejects on a network problem. */
export async function attemptDelivery(
  deps: AttemptDeps,
  w: WebhookRecord,
  d: DeliveryRecord,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  // Once per attempt: the name may resolve elsewhere now than when the endpoint was created, and the
  // connection goes to exactly the address judged here.
  const target = await resolveDeliveryTarget(w.url, {
    allowPrivate: deps.allowPrivate,
    ...(deps.lookup !== undefined ? { lookup: deps.lookup } : {}),
  });
  if (typeof target === "string") return outcomeOf(target);
  const secretBytes = deps.vault.decryptSecret({ ...w.secret, publicKey: secretAad(w.id) });
  const secret = Buffer.from(secretBytes).toString("utf8");
  secretBytes.fill(0);
  const timestamp = Math.floor(deps.clock().getTime() / 1000);
  const send = deps.transport ?? pinnedPost;
  const answer = await send(target, {
    headers: {
      "content-type": "application/json",
      "user-agent": "lasertrade-webhooks",
      "webhook-id": d.messageId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(secret, d.messageId, timestamp, d.payload),
    },
    body: d.payload,
    timeoutMs,
  }).catch((): PostAnswer => ({ kind: "failed" }));
  return outcomeOf(answer);
}
