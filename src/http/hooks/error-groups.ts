/**
 * The groups of the error catalog (error-catalog.ts): each capability's texts and how their codes are named.
 * A new capability's texts object gets one line here; its codes follow from its keys.
 */
import {
  BUNDLE_RULES,
  CASHBACK_RULES,
  CREATE_RULES,
  EXECUTION,
  EVENTS,
  FOUNDATION,
  HARDENING,
  HTTP_INPUT,
  POSITIONS,
  IDEMPOTENCY,
  LAUNCH,
  OUTCOME_RULES,
  REQUEST_FEES,
  SOL_RULES,
  SPEC,
  STREAM,
  TRADE_RULES,
  WATCH_RULES,
} from "../../core/errors.js";
import { KEY_POWERS } from "../../domain/keys/can-manage.js";
import { KEY_CHAIN } from "../../domain/keys/key-chain.js";
import { KEY_NAME } from "../../domain/keys/key-names.js";
import { KEY_CREATE } from "../../domain/keys/keys.js";
import { CUSTODY, KEY_POLICY } from "../../domain/keys/texts.js";
import { STREAM_CAP_TEXTS } from "../../domain/streams/stream-registry.js";
import { NONCE_TEXTS } from "../../domain/execution/nonce.js";
import { ORDER_RULES } from "../../domain/orders/texts.js";
import { SNIPE_RULES } from "../../domain/orders/snipe-texts.js";
import { COPY_RULES } from "../../domain/orders/copy-texts.js";
import { RACE_RULES } from "../../domain/trade/race-request.js";
import { OUTSIDE } from "../../domain/outside/texts.js";
import { OUTSIDE_NONCE } from "../../domain/outside/nonce-texts.js";
import { OUTSIDE_LEGS } from "../../domain/outside/leg-texts.js";

/** A catalog text: fixed, or built from arguments. */
export type Text = string | ((...args: never[]) => string);

/** One group of texts and how its codes are named. */
export interface Group {
  /** The code's first part. */
  capability: string;
  texts: Readonly<Record<string, Text>>;
  /** The status of every text of the group but those in `statuses` (default 400). */
  status?: number;
  statuses?: Readonly<Record<string, readonly number[]>>;
  /** A code other than `<capability>.<snake_case key>` (a text that belongs to another capability). */
  codes?: Readonly<Record<string, string>>;
  /** Keys that are not error texts (a warning, a hint beside another error). */
  skip?: readonly string[];
}

/** Order matters only for a text listed twice: the first group's code is its code. */
export const GROUPS: readonly Group[] = [
  {
    capability: "auth",
    texts: FOUNDATION,
    status: 400,
    statuses: {
      apiKeyMissing: [401],
      apiKeyInvalid: [401],
      setupRateLimited: [429],
      walletNotFound: [404],
      walletAlreadyLinked: [409],
      bodyTooLarge: [413],
      unsupportedContentType: [415],
      notFound: [404],
      internal: [500],
    },
    codes: {
      apiKeyMissing: "auth.missing_key",
      apiKeyInvalid: "auth.invalid_key",
      setupRateLimited: "setup.rate_limited",
      walletNotFound: "wallets.not_found",
      noWallets: "wallets.none",
      walletAlreadyLinked: "wallets.already_linked",
      privateKeyRequired: "wallets.private_key_required",
      privateKeyNotBase58: "wallets.private_key_not_base58",
      privateKeyLength: "wallets.private_key_length",
      privateKeyMismatch: "wallets.private_key_mismatch",
      invalidJson: "http.invalid_json",
      unsupportedContentType: "http.unsupported_content_type",
      bodyTooLarge: "http.body_too_large",
      notFound: "http.route_not_found",
      internal: "http.internal",
    },
  },
  { capability: "http", texts: HTTP_INPUT, statuses: { paramTooLong: [414] } },
  {
    capability: "http",
    texts: HARDENING,
    statuses: {
      rateLimited: [429],
      accountRateLimited: [429],
      authFailuresLimited: [429],
      walletLimit: [409],
      setupClosed: [403],
      setupToken: [401],
      metricsToken: [401],
      hostNotAllowed: [421],
    },
    codes: {
      rateLimited: "limits.rate_limited",
      accountRateLimited: "limits.account_rate_limited",
      authFailuresLimited: "auth.too_many_failures",
      walletLimit: "wallets.limit_reached",
      setupClosed: "setup.closed",
      setupToken: "setup.token_required",
      metricsToken: "auth.metrics_token",
      bodyObject: "http.body_not_object",
      defaultSourcesCount: "consolidate.default_sources_count",
    },
  },
  {
    capability: "http",
    texts: REQUEST_FEES,
    skip: ["unknownFieldIgnored"],
    codes: {
      priorityFeeInvalid: "fees.priority_fee_invalid",
      tipInvalid: "fees.tip_invalid",
      priorityFeeTooHigh: "fees.priority_fee_too_high",
      tipTooHigh: "fees.tip_too_high",
      tipWithoutTipAccounts: "fees.tip_without_tip_accounts",
      unknownFieldRefused: "http.unknown_field",
    },
  },
  {
    capability: "idempotency",
    texts: IDEMPOTENCY,
    statuses: { differentRequest: [422], inProgress: [409], interrupted: [409] },
  },
  {
    capability: "execution",
    texts: EXECUTION,
    statuses: {
      chainUnavailable: [503],
      chainNotReady: [503],
      cacheMissing: [502],
      readFailedPrefix: [502],
    },
  },
  { capability: "execution", texts: OUTCOME_RULES },
  {
    capability: "trade",
    texts: SPEC.trade,
    statuses: { simulationFailed: [400] },
  },
  { capability: "launch", texts: LAUNCH, statuses: { curveInvalid: [400, 502] } },
  {
    capability: "trade",
    texts: TRADE_RULES,
    skip: ["atomicUnitsHint"],
    codes: { mintInvalid: "launch.invalid_mint", walletInvalid: "wallets.invalid_address" },
  },
  { capability: "create", texts: SPEC.create },
  { capability: "create", texts: CREATE_RULES },
  { capability: "bundle", texts: SPEC.bundle, statuses: { timedOut: [502], failed: [502] } },
  { capability: "bundle", texts: BUNDLE_RULES },
  { capability: "cashback", texts: SPEC.claim, statuses: { readFailed: [502] } },
  {
    capability: "cashback",
    texts: SPEC.check,
    statuses: { readFailed: [502], badOwner: [502], badSwapAccount: [502] },
  },
  { capability: "cashback", texts: CASHBACK_RULES },
  { capability: "sol", texts: SOL_RULES },
  {
    capability: "consolidate",
    texts: SPEC.consolidate,
    statuses: { noSources: [404] },
    codes: { invalidDestination: "sol.invalid_destination", lowBalancePrefix: "consolidate.low_balance" },
  },
  { capability: "transfer", texts: SPEC.transfer, codes: { lowBalance: "sol.low_balance" } },
  { capability: "split", texts: SPEC.split },
  { capability: "stream", texts: STREAM, statuses: { upgradeRequired: [426] } },
  { capability: "stream", texts: STREAM_CAP_TEXTS, status: 429 },
  { capability: "watch", texts: WATCH_RULES, statuses: { notWatched: [404] } },
  {
    capability: "events",
    texts: EVENTS,
    statuses: {
      executionNotFound: [404],
      webhookNotFound: [404],
      deliveryNotFound: [404],
      webhookLimit: [409],
    },
  },
  {
    capability: "keys",
    texts: CUSTODY,
    statuses: {
      keyRevoked: [401],
      keyExpired: [401],
      keyFrozen: [403],
      accountFrozen: [403],
      rootOnly: [403],
      missingScope: [403],
      walletNotAllowed: [403],
      keyNotFound: [404],
    },
    codes: { keyRevoked: "auth.key_revoked", keyExpired: "auth.key_expired" },
  },
  { capability: "keys", texts: KEY_CHAIN, status: 403 },
  {
    capability: "keys",
    texts: KEY_POWERS,
    status: 403,
    statuses: { rootNotFreezable: [400] },
    codes: { exceeds: "keys.powers_exceeded" },
  },
  { capability: "keys", texts: KEY_CREATE, statuses: { keyLimit: [409] } },
  {
    capability: "keys",
    texts: KEY_NAME,
    codes: { reserved: "keys.name_reserved", characters: "keys.name_characters" },
  },
  { capability: "keys", texts: KEY_POLICY },
  { capability: "positions", texts: POSITIONS, statuses: { positionNotFound: [404] } },
  {
    capability: "orders",
    texts: ORDER_RULES,
    statuses: { notFound: [404], idInvalid: [404], notOpen: [409], tooMany: [409] },
    // The body text is the execution's own; an unknown order id reads as not found.
    skip: ["bodyObject", "idInvalid"],
  },
  { capability: "orders", texts: SNIPE_RULES, codes: { field: "orders.snipe_unknown_field" } },
  {
    capability: "orders",
    texts: COPY_RULES,
    codes: {
      field: "orders.copy_unknown_field",
      mintGiven: "orders.copy_mint_given",
      amount: "orders.copy_amount",
      flag: "orders.copy_flag",
    },
  },
  { capability: "landing", texts: RACE_RULES },
  { capability: "outside", texts: OUTSIDE },
  { capability: "outside", texts: OUTSIDE_LEGS },
  {
    capability: "outside",
    texts: OUTSIDE_NONCE,
    statuses: { nonceMissing: [409], addressTaken: [409], otherAuthority: [409], nonceAdvanced: [409] },
  },
  {
    capability: "landing",
    texts: NONCE_TEXTS,
    statuses: { notCreatedInTime: [502], notCreated: [502], otherAuthority: [409] },
  },
];
