/** Standard Webhooks signing: `whsec_` secrets and the v1 HMAC-SHA256 signature of `id.timestamp.body`. */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new signing secret, `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

/** The `webhook-signature` header value for one attempt. */
export function signWebhook(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${messageId}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}
