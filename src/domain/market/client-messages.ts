/**
 * The messages a stream client sends, parsed and checked: `auth`, the four subscribe methods and their
 * unsubscribe twins (the names PumpPortal's users know). A bad message yields the text of the
 * `{"type":"error"}` reply; the connection stays open.
 */
import { isAddress } from "../../core/addresses.js";

/** The subscribe methods and what they subscribe to. */
export const SUBSCRIBE_METHODS = {
  subscribeNewToken: { topic: "new_token", on: true },
  unsubscribeNewToken: { topic: "new_token", on: false },
  subscribeMigration: { topic: "migration", on: true },
  unsubscribeMigration: { topic: "migration", on: false },
  subscribeTokenTrade: { topic: "token", on: true },
  unsubscribeTokenTrade: { topic: "token", on: false },
  subscribeAccountTrade: { topic: "account", on: true },
  unsubscribeAccountTrade: { topic: "account", on: false },
} as const;

export type SubscribeMethod = keyof typeof SUBSCRIBE_METHODS;

/** A checked client message. */
export type ClientMessage =
  { method: "auth"; apiKey: string } | { method: "ping" } | { method: SubscribeMethod; keys: string[] };

const METHODS = [...Object.keys(SUBSCRIBE_METHODS), "auth", "ping"].join(", ");

/** Parses one text frame; `{ error }` carries the reply's message. */
export function parseClientMessage(text: string, maxKeys: number): { ok: ClientMessage } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: "message is not valid JSON" };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { error: "message must be a JSON object with a method" };
  const body = value as Record<string, unknown>;
  const method = body.method;
  if (typeof method !== "string") return { error: `method is required (one of ${METHODS})` };
  if (method === "auth") {
    const key = body.api_key;
    if (typeof key !== "string" || key.trim() === "") return { error: "api_key must be a non-empty string" };
    return { ok: { method: "auth", apiKey: key.trim() } };
  }
  if (method === "ping") return { ok: { method: "ping" } };
  if (!Object.hasOwn(SUBSCRIBE_METHODS, method))
    return { error: `unknown method ${JSON.stringify(method).slice(0, 64)} (one of ${METHODS})` };
  const m = method as SubscribeMethod;
  const topic = SUBSCRIBE_METHODS[m].topic;
  if (topic === "new_token" || topic === "migration") return { ok: { method: m, keys: [] } };
  const keys = body.keys;
  if (!Array.isArray(keys) || keys.length === 0)
    return {
      error: `${m} needs keys: a non-empty array of ${topic === "token" ? "mint" : "wallet"} addresses`,
    };
  if (keys.length > maxKeys) return { error: `${m}: at most ${maxKeys} keys per connection` };
  for (const k of keys) {
    if (!isAddress(k)) return { error: `${m}: ${JSON.stringify(k).slice(0, 64)} is not a valid address` };
  }
  return { ok: { method: m, keys: [...new Set(keys as string[])] } };
}
