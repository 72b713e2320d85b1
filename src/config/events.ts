/** Settings of execution events and webhooks (issue 20). */
import { ConfigError, int, oneOf, raw } from "./parse.js";

/** The events part of the configuration. */
export interface EventSettings {
  /** How long events stay in the outbox (EVENTS_RETENTION_DAYS, default 7); older ones are purged. */
  readonly eventsRetentionDays: number;
  /** WEBHOOK_ALLOW_PRIVATE=true: webhook URLs may point at loopback / private addresses (always so in the sandbox). */
  readonly webhookAllowPrivate: boolean;
  /**
   * WEBHOOK_RETRY_DELAYS_MS: the waits before retries 1..n in ms; undefined = the schedule (5 s, 5 min,
   * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h). For tests and soak runs that must finish in minutes.
   */
  readonly webhookRetryDelaysMs: readonly number[] | undefined;
  /** WEBHOOK_TIMEOUT_MS: per-attempt timeout (default 10000). */
  readonly webhookTimeoutMs: number;
  /** WEBHOOK_LEASE_MARGIN_MS: a claimed delivery's lease beyond the attempt timeout (default 20000). */
  readonly webhookLeaseMarginMs: number;
  /** MAX_WEBHOOKS_PER_ACCOUNT: endpoints one account may register (default 20; issue 29). */
  readonly maxWebhooksPerAccount: number;
}

const MAX_RETRIES = 50;
const DAY_MS = 86_400_000;

/** Parses WEBHOOK_RETRY_DELAYS_MS: 1 to 50 comma-separated integers, each 1 ms to 1 day. */
export function parseRetryDelays(env: NodeJS.ProcessEnv): readonly number[] | undefined {
  const v = raw(env, "WEBHOOK_RETRY_DELAYS_MS");
  if (v === undefined) return undefined;
  const parts = v.split(",").map((s) => s.trim());
  if (parts.length > MAX_RETRIES)
    throw new ConfigError("WEBHOOK_RETRY_DELAYS_MS", `must list at most ${MAX_RETRIES} delays`);
  return parts.map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > DAY_MS)
      throw new ConfigError(
        "WEBHOOK_RETRY_DELAYS_MS",
        `must be comma-separated milliseconds between 1 and ${DAY_MS}, got "${p}"`,
      );
    return Number(p);
  });
}

/** Parses EVENTS_RETENTION_DAYS, WEBHOOK_ALLOW_PRIVATE, the webhook timing settings and the webhook cap. */
export function loadEventSettings(env: NodeJS.ProcessEnv): EventSettings {
  const allow = oneOf(env, "WEBHOOK_ALLOW_PRIVATE", ["true", "false"] as const, "false");
  const days = int(env, "EVENTS_RETENTION_DAYS", 7, 1, 3650);
  if (!Number.isSafeInteger(days)) throw new ConfigError("EVENTS_RETENTION_DAYS", "must be an integer");
  return {
    eventsRetentionDays: days,
    webhookAllowPrivate: allow === "true",
    webhookRetryDelaysMs: parseRetryDelays(env),
    webhookTimeoutMs: int(env, "WEBHOOK_TIMEOUT_MS", 10_000, 100, 60_000),
    webhookLeaseMarginMs: int(env, "WEBHOOK_LEASE_MARGIN_MS", 20_000, 100, 600_000),
    // Each endpoint is one signed outbound POST per matching event: the cap bounds one trade's fan-out.
    maxWebhooksPerAccount: int(env, "MAX_WEBHOOKS_PER_ACCOUNT", 20, 1, 1000),
  };
}
