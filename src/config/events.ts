/** Settings of execution events and webhooks (issue 20). */
import { ConfigError, int, oneOf } from "./parse.js";

/** The events part of the configuration. */
export interface EventSettings {
  /** How long events stay in the outbox (EVENTS_RETENTION_DAYS, default 7); older ones are purged. */
  readonly eventsRetentionDays: number;
  /** WEBHOOK_ALLOW_PRIVATE=true: webhook URLs may point at loopback / private addresses (always so in the sandbox). */
  readonly webhookAllowPrivate: boolean;
}

/** Parses EVENTS_RETENTION_DAYS and WEBHOOK_ALLOW_PRIVATE. */
export function loadEventSettings(env: NodeJS.ProcessEnv): EventSettings {
  const allow = oneOf(env, "WEBHOOK_ALLOW_PRIVATE", ["true", "false"] as const, "false");
  const days = int(env, "EVENTS_RETENTION_DAYS", 7, 1, 3650);
  if (!Number.isSafeInteger(days)) throw new ConfigError("EVENTS_RETENTION_DAYS", "must be an integer");
  return { eventsRetentionDays: days, webhookAllowPrivate: allow === "true" };
}
