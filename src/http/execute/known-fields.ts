/**
 * Issue 22 item 5: the body fields each execution endpoint reads (names and aliases, as the domain parsers
 * read them), so a field nobody reads — `"slipage": 1` — is answered with a warning (or, with
 * STRICT_FIELDS=true, a 400) instead of vanishing. test/unit/http/known-fields.test.ts checks that every
 * documented field is listed here.
 */
import { isObject } from "../../chain/json-rpc.js";
import { BUNDLE_TIP_FIELDS, PRIORITY_FEE_FIELDS, TIP_FIELDS } from "../../core/fee-fields.js";
import { TRADE_SHAPE_FIELDS } from "../../domain/trade/quote-service.js";

/** Fields of every execution body: the dry-run flag (issue 19) and the per-request fee and tip. */
const COMMON = ["dry_run", ...PRIORITY_FEE_FIELDS, ...TIP_FIELDS];

/** The create model (spec 4.4), shared by the create endpoint and a bundle's create leg. */
const CREATE_FIELDS = [
  "name",
  "symbol",
  "uri",
  "metadataUrl",
  "metadataUri",
  "initial_buy",
  "initialBuy",
  "buyAmountSol",
  "devBuy",
  "dev_buy",
  "slippage",
  "initialBuySlippage",
  "devBuySlippage",
  "dev_buy_slippage",
  "mayhem_mode",
  "mayhemMode",
  "cashback",
  "wallet",
];

/** A bundle leg: `type`, the create model on a create leg, the trade fields on a buy or sell leg. */
const BUNDLE_LEG_FIELDS = [
  "type",
  ...CREATE_FIELDS,
  "amount",
  "denominatedInSol",
  "denominated_in_sol",
  "slippageBps",
  "slippage_bps",
  "pool",
];

/** Top-level fields per route, and the fields of the objects inside an array field. */
interface KnownFields {
  top: readonly string[];
  items?: Record<string, readonly string[]>;
}

const KNOWN: Record<string, KnownFields> = {
  "/v1/trades/execute": {
    top: [...TRADE_SHAPE_FIELDS, "simulate", "confirm", "measure_timing", "wallet", "routes", "mev_protect"],
  },
  "/v1/laser/create": { top: [...CREATE_FIELDS, "confirm"] },
  "/v1/laser/bundle": {
    top: ["accounts", "mint", ...BUNDLE_TIP_FIELDS, "confirm"],
    items: { accounts: BUNDLE_LEG_FIELDS },
  },
  "/v1/cashback/claim/execute": { top: ["wallet", "claim_bonding_curve", "claim_launchswap", "confirm"] },
  "/v1/sol/transfer/execute": {
    top: [
      "destination_wallet",
      "source_wallet",
      "mint",
      "amount",
      "amount_tokens",
      "fee_reserve_lamports",
      "confirm",
    ],
  },
  "/v1/sol/consolidate/execute": {
    top: ["destination_wallet", "source_wallets", "fee_reserve_lamports", "confirm"],
  },
  "/v1/sol/split/execute": {
    top: ["source_wallet", "total_percent", "fee_reserve_lamports", "destinations", "confirm"],
    items: { destinations: ["wallet", "sol", "percent"] },
  },
};

// Built once: the check runs on every execution request.
const KNOWN_SETS = new Map(
  Object.entries(KNOWN).map(([url, k]) => [
    url,
    {
      top: new Set([...COMMON, ...k.top]),
      items: new Map(Object.entries(k.items ?? {}).map(([name, fields]) => [name, new Set(fields)])),
    },
  ]),
);

/**
 * Issue 29 finding 14: the body fields that make an execution safer or stop it (`dry_run`: send nothing;
 * `simulate`: refuse a failing transaction; `confirm`: wait for the outcome). A misspelling of one of them
 * (`dryRun`, `DRY_RUN`, `dry-run`) would be ignored as an unknown field and the request would execute as if
 * the switch were off, so it is refused instead (`misspeltSwitch`).
 */
export const SAFETY_SWITCHES = ["dry_run", "simulate", "confirm"] as const;

/** A field name as a switch is compared: lowercase, underscores and dashes removed (`dryRun` → `dryrun`). */
const normalized = (name: string): string => name.toLowerCase().replace(/[_-]/g, "");

const SWITCH_BY_NORMALIZED = new Map<string, string>(SAFETY_SWITCHES.map((s) => [normalized(s), s]));

/**
 * The first unknown field of `unknown` (paths from `unknownFields`) that is a misspelling of a safety switch
 * the route reads, with the switch's real name; undefined when there is none. A nested field (`accounts[0].
 * dryRun`) counts too: the switch is a top-level field, and the sender meant it.
 */
export function misspeltSwitch(
  url: string,
  unknown: readonly string[],
): { field: string; safetySwitch: string } | undefined {
  const k = KNOWN_SETS.get(url);
  if (k === undefined) return undefined;
  for (const field of unknown) {
    const name = field.slice(field.lastIndexOf(".") + 1);
    const safetySwitch = SWITCH_BY_NORMALIZED.get(normalized(name));
    if (safetySwitch !== undefined && k.top.has(safetySwitch)) return { field, safetySwitch };
  }
  return undefined;
}

/** The known top-level fields of a route (undefined: not an execution route). */
export function knownFields(url: string): readonly string[] | undefined {
  const k = KNOWN[url];
  return k === undefined ? undefined : [...COMMON, ...k.top];
}

/**
 * The fields of `body` the route does not read, as paths (`slipage`, `accounts[1].slipage`), in body order;
 * empty for a route that is not an execution route or a body that is not an object.
 */
export function unknownFields(url: string, body: unknown): string[] {
  const k = KNOWN_SETS.get(url);
  if (k === undefined || !isObject(body)) return [];
  const out: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    if (!k.top.has(name)) {
      out.push(name);
      continue;
    }
    const known = k.items.get(name);
    if (known === undefined || !Array.isArray(value)) continue;
    value.forEach((item, i) => {
      if (!isObject(item)) return;
      for (const field of Object.keys(item)) if (!known.has(field)) out.push(`${name}[${i}].${field}`);
    });
  }
  return out;
}
