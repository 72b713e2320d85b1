/**
 * The machine codes of every error answer (issue 30 item 4): each text of the error catalog (core/errors.ts
 * and the texts kept beside their capability) gets one stable snake_case code `<capability>.<condition>` and
 * the statuses it is answered with. The code is found from the text the error carries, so a text handed down
 * through a parser helper (`parseAddress(v, SPEC.check.invalidAddress)`) keeps its code without the helper
 * knowing it. Texts with a variable part (templates, `...Prefix` entries) match by their fixed parts; a text
 * listed under two capabilities takes the code of the first group listed here (one text, one code).
 * Renaming a catalog key renames its code: the committed client types (`ErrorCode`) show it in review.
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
import { ORDER_RULES } from "../../domain/orders/texts.js";
import { SNIPE_RULES } from "../../domain/orders/snipe-texts.js";
import { STREAM_CAP_TEXTS } from "../../domain/streams/stream-registry.js";

/** A catalog text: fixed, or built from arguments. */
type Text = string | ((...args: never[]) => string);

/** One group of texts and how its codes are named. */
interface Group {
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
const GROUPS: readonly Group[] = [
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
  {
    capability: "orders",
    texts: ORDER_RULES,
    statuses: { notFound: [404], idInvalid: [404], notOpen: [409], tooMany: [409] },
  },
  { capability: "orders", texts: SNIPE_RULES, codes: { field: "orders.snipe_unknown_field" } },
];

/** Codes no catalog text carries: answers of the error handler and the fallbacks of uncatalogued texts. */
export const GENERIC_CODES = {
  /** The route's JSON Schema (Fastify/Ajv) refused the query, params, headers or body. */
  validation: { code: "http.validation_failed", statuses: [400] },
  /** Another framework client error (content-length mismatch, …). */
  badRequest: { code: "http.bad_request", statuses: [400] },
  /** A key policy refused the request (403 with `rule` naming the policy field). */
  policy: { code: "keys.policy_refused", statuses: [403] },
  /** A 403 of the custody layer whose rule has no code of its own. */
  refused: { code: "keys.refused", statuses: [403] },
  /** An upstream (RPC, relay) failure answered with the upstream's own words. */
  upstream: { code: "upstream.error", statuses: [502] },
} as const;

/** The code of each chain failure reason whose text is the upstream's (domain/execution/failure.ts). */
export const CHAIN_CODES = {
  rpc_unavailable: { code: "chain.rpc_unavailable", statuses: [502] },
  simulation_failed: { code: "chain.simulation_failed", statuses: [400] },
  relay_refused: { code: "chain.relay_refused", statuses: [502] },
  relay_unreachable: { code: "chain.relay_unreachable", statuses: [502] },
  landed_with_error: { code: "chain.landed_with_error", statuses: [502] },
  confirmation_unavailable: { code: "chain.confirmation_unavailable", statuses: [502] },
  bundle_failed: { code: "chain.bundle_failed", statuses: [502] },
  bundle_timed_out: { code: "chain.bundle_timed_out", statuses: [502] },
} as const;

/** The policy fields a 403's `rule` can name (domain/keys/policy.ts `PolicyRule`). */
const POLICY_RULES: ReadonlySet<string> = new Set([
  "max_sol_per_execution",
  "max_sol_per_24h",
  "max_priority_fee_lamports",
  "max_tip_lamports",
  "venues",
  "mints_allow",
  "mints_deny",
  "destinations_allow",
]);

/** One code of the catalog. */
export interface CodeEntry {
  code: string;
  statuses: readonly number[];
  /** The group and key it comes from ("SPEC.trade" is not kept: the capability and key say enough). */
  source: string;
  /** A text the code is answered with (a template's filled with `…`). */
  sample: string;
}

interface Template {
  code: string;
  re: RegExp;
  /** A template matches only errors of its statuses (a short fixed part would match too much otherwise). */
  statuses: readonly number[];
  /** Characters of fixed text: the most specific template wins when two match. */
  fixed: number;
}

const MARK = "\u0000";
const snake = (key: string): string =>
  key.replace(/Prefix$/, "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The code catalog: every code with its statuses, and the lookup of a text's code. */
export interface ErrorCatalog {
  entries: readonly CodeEntry[];
  /** The code of a catalog text answered with `status`; undefined for a text outside the catalog. */
  codeOfText(detail: string, status: number): string | undefined;
}

/** Builds the catalog from the groups (pure; throws when two texts claim one code). */
export function buildErrorCatalog(groups: readonly Group[] = GROUPS): ErrorCatalog {
  const exact = new Map<string, string>();
  const templates: Template[] = [];
  const byCode = new Map<string, CodeEntry>();
  const add = (code: string, statuses: readonly number[], source: string, sample: string): void => {
    const seen = byCode.get(code);
    if (seen === undefined) byCode.set(code, { code, statuses, source, sample });
    else if (seen.sample !== sample)
      throw new Error(`error code ${code} claimed by ${seen.source} and ${source} with different texts`);
    else byCode.set(code, { ...seen, statuses: [...new Set([...seen.statuses, ...statuses])].sort() });
  };
  for (const g of groups) {
    for (const [key, text] of Object.entries(g.texts)) {
      if (g.skip?.includes(key)) continue;
      const statuses = g.statuses?.[key] ?? [g.status ?? 400];
      const own = g.codes?.[key] ?? `${g.capability}.${snake(key)}`;
      const source = `${g.capability}:${key}`;
      if (typeof text === "string" && !key.endsWith("Prefix")) {
        const code = exact.get(text) ?? own;
        exact.set(text, code);
        add(code, statuses, source, text);
        continue;
      }
      const filled =
        typeof text === "string"
          ? text + MARK
          : (text as (...a: string[]) => string)(...Array.from({ length: text.length }, () => MARK));
      const parts = filled.split(MARK);
      const fixed = parts.join("").length;
      const re = new RegExp(`^${parts.map(escape).join("[\\s\\S]*?")}$`);
      if (!templates.some((t) => t.re.source === re.source))
        templates.push({ code: own, re, fixed, statuses });
      add(templates.find((t) => t.re.source === re.source)!.code, statuses, source, parts.join("…"));
    }
  }
  templates.sort((a, b) => b.fixed - a.fixed);
  return {
    entries: [...byCode.values()],
    codeOfText(detail: string, status: number): string | undefined {
      const hit = exact.get(detail);
      if (hit !== undefined) return hit;
      for (const t of templates) if (t.statuses.includes(status) && t.re.test(detail)) return t.code;
      return undefined;
    },
  };
}

/** Every code the API can answer with, and the statuses of each (the catalog's and the generic ones). */
export function allCodes(catalog: ErrorCatalog): readonly { code: string; statuses: readonly number[] }[] {
  const out = new Map<string, Set<number>>();
  const put = (code: string, statuses: readonly number[]): void => {
    const s = out.get(code) ?? new Set<number>();
    for (const x of statuses) s.add(x);
    out.set(code, s);
  };
  for (const e of catalog.entries) put(e.code, e.statuses);
  for (const g of [...Object.values(GENERIC_CODES), ...Object.values(CHAIN_CODES)]) put(g.code, g.statuses);
  return [...out.entries()]
    .map(([code, s]) => ({ code, statuses: [...s].sort((a, b) => a - b) }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** The codes each status can come with. */
export function codesByStatus(catalog: ErrorCatalog): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const { code, statuses } of allCodes(catalog))
    for (const s of statuses) out.set(s, [...(out.get(s) ?? []), code]);
  return out;
}

/** What the code of one answered error is decided from. */
export interface CodedError {
  status: number;
  detail: string;
  extra?: Readonly<Record<string, unknown>>;
  /** A chain failure's reason (ChainError), when the error is one. */
  chainReason?: keyof typeof CHAIN_CODES;
}

/**
 * The code of an answered error: a policy 403 by its `rule`, else its text's catalog code, else the chain
 * reason's, else the generic code of its status.
 */
export function codeOf(catalog: ErrorCatalog, e: CodedError): string {
  const rule = e.extra?.rule;
  if (e.status === 403 && typeof rule === "string" && POLICY_RULES.has(rule))
    return GENERIC_CODES.policy.code;
  const byText = catalog.codeOfText(e.detail, e.status);
  if (byText !== undefined) return byText;
  if (e.chainReason !== undefined) return CHAIN_CODES[e.chainReason].code;
  if (e.status === 403) return GENERIC_CODES.refused.code;
  if (e.status >= 500) return e.status === 500 ? "http.internal" : GENERIC_CODES.upstream.code;
  return GENERIC_CODES.badRequest.code;
}

/** The one catalog of the running app (built once from constant texts). */
export const ERROR_CATALOG: ErrorCatalog = buildErrorCatalog();
