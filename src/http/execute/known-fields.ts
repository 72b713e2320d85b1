/**
 * Issue 22 item 5: the body fields each execution endpoint reads (names and aliases, as the domain parsers
 * read them), so a field nobody reads — `"slipage": 1` — is answered with a warning (or, with
 * STRICT_FIELDS=true, a 400) instead of vanishing. Generated from each kind's descriptor (issue 30): its
 * documented fields, the aliases its parser reads and the fields of its array items.
 */
import { isObject } from "../../chain/json-rpc.js";
import { PRIORITY_FEE_FIELDS, TIP_FIELDS } from "../../core/fee-fields.js";
import type { ExecutionKindEntry } from "../../domain/execution/kind.js";
import { EXECUTION_KIND_LIST } from "../../domain/kinds.js";

/** Fields of every execution body: the dry-run flag (issue 19) and the per-request fee and tip. */
const COMMON = ["dry_run", ...PRIORITY_FEE_FIELDS, ...TIP_FIELDS];

/** Top-level fields of a kind's body, and the fields of the objects inside an array field. */
interface KnownSets {
  top: ReadonlySet<string>;
  items: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A kind's known fields, from its descriptor: documented fields, the names the parser reads for them, items. */
function knownSetsOf(kind: ExecutionKindEntry): KnownSets {
  const { properties, aliases = [], items = {} } = kind.body;
  return {
    top: new Set([...COMMON, ...Object.keys(properties), ...aliases]),
    items: new Map(Object.entries(items).map(([name, fields]) => [name, new Set(fields)])),
  };
}

/** The known fields of every kind of `kinds`, by route path; built once (checked on every execution request). */
export interface KnownFieldsTable {
  /** The known top-level fields of a route (undefined: not an execution route). */
  knownFields(url: string): readonly string[] | undefined;
  /** The fields of `body` the route does not read, as paths (`slipage`, `accounts[1].slipage`), in body order. */
  unknownFields(url: string, body: unknown): string[];
  /** The first unknown field that is a misspelt safety switch the route reads (see `misspeltSwitch`). */
  misspeltSwitch(
    url: string,
    unknown: readonly string[],
  ): { field: string; safetySwitch: string } | undefined;
}

/** The known-fields table of `kinds`. */
export function knownFieldsTable(kinds: readonly ExecutionKindEntry[]): KnownFieldsTable {
  const sets = new Map(kinds.map((k) => [k.path, knownSetsOf(k)]));
  return {
    knownFields: (url) => {
      const k = sets.get(url);
      return k === undefined ? undefined : [...k.top];
    },
    unknownFields: (url, body) => unknownIn(sets.get(url), body),
    misspeltSwitch: (url, unknown) => misspeltIn(sets.get(url), unknown),
  };
}

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

/** A misspelt safety switch among `unknown` (a nested one counts too: the sender meant the switch). */
function misspeltIn(
  k: KnownSets | undefined,
  unknown: readonly string[],
): { field: string; safetySwitch: string } | undefined {
  if (k === undefined) return undefined;
  for (const field of unknown) {
    const name = field.slice(field.lastIndexOf(".") + 1);
    const safetySwitch = SWITCH_BY_NORMALIZED.get(normalized(name));
    if (safetySwitch !== undefined && k.top.has(safetySwitch)) return { field, safetySwitch };
  }
  return undefined;
}

/** The unknown fields of `body`; empty for a route that is not an execution route or a body not an object. */
function unknownIn(k: KnownSets | undefined, body: unknown): string[] {
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

// The service's own kinds: what the module-level functions below answer for.
const SERVICE = knownFieldsTable(EXECUTION_KIND_LIST);

/** The known top-level fields of one of the service's execution routes (undefined: not one). */
export const knownFields = (url: string): readonly string[] | undefined => SERVICE.knownFields(url);

/** The fields of `body` one of the service's execution routes does not read (see KnownFieldsTable). */
export const unknownFields = (url: string, body: unknown): string[] => SERVICE.unknownFields(url, body);

/**
 * The first unknown field of `unknown` (paths from `unknownFields`) that is a misspelling of a safety switch
 * the route reads, with the switch's real name; undefined when there is none.
 */
export const misspeltSwitch = (
  url: string,
  unknown: readonly string[],
): { field: string; safetySwitch: string } | undefined => SERVICE.misspeltSwitch(url, unknown);
