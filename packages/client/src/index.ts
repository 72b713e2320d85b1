/** @lasertrade/client: a typed client for the lasertrade managed-wallet trading API. */
export { LaserTrade, type LaserTradeOptions } from "./laser-trade.js";
export { LaserTradeError, type ErrorCode } from "./errors.js";
export { lamportsToSol, solToLamports, type Amount } from "./amounts.js";
export { isLamportKey, parseBody, type WithBigints } from "./json.js";
export { DEFAULT_RETRY, backoffMs, type RetryOptions } from "./retry.js";
export type * from "./types.js";
export type { paths } from "./generated/openapi.js";
export {
  MarketStream,
  parseStreamEvent,
  streamUrl,
  type MigrationEvent,
  type NewTokenEvent,
  type StreamEvent,
  type StreamOptions,
  type TradeEvent,
  type WebSocketCtor,
  type WebSocketLike,
} from "./stream.js";
export type { ExecutionEvent, EventsOptions, EventsQuery } from "./events.js";
export { nextAfterFromLink, type WalletPage } from "./wallet-pages.js";
export { nextWebhookAfterFromLink, type Webhook, type WebhookPage } from "./resources/webhooks.js";
