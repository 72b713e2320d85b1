/**
 * The descriptor of one execution kind (issue 30): everything the service needs to know about it, in the kind's
 * own folder. One list of descriptors (src/domain/kinds.ts) produces the route registration, the OpenAPI body
 * and response with examples, the known body fields, the kind lists and the spend planning; the parser is the
 * one validator of the body (the spec's aliases, number-or-string amounts and exact texts in their order), and
 * the body's JSON Schema beside it is its one description (docs/decisions.md, "execution kind descriptors").
 */
import type { OperationKind } from "../../chain/chain.js";
import type { RequestBody } from "../../core/request-fields.js";
import type { BundleLimits } from "../bundle/shape.js";
import type { RouteScope } from "../keys/scopes.js";
import type { ExecutionKind } from "../../store/index.js";
import type { SpendPlan } from "../keys/spend.js";

/** One field of a body as the OpenAPI document states it (type, pattern, description…). */
export type FieldSchema = Record<string, unknown>;

/** The body of an execution kind: its one description. */
export interface BodySchema {
  /** Each documented field with its type and description, in the document's order. */
  properties: Record<string, FieldSchema>;
  /** Fields the document marks required (the parser decides, with the spec's texts). */
  required?: readonly string[];
  /** Other names the parser reads for documented fields (`side` for `action`): known, not documented apart. */
  aliases?: readonly string[];
  /** Names the parser reads in the objects of an array field (`accounts`, `destinations`), aliases included. */
  items?: Readonly<Record<string, readonly string[]>>;
  /** The body may be left out (no body or JSON null is `{}`). */
  optional?: boolean;
  /**
   * Rules across fields as JSON Schema keywords beside `properties` (`oneOf` of required sets, `not`,
   * `dependentRequired`): stated for the document; the parser enforces them with the spec's texts.
   */
  rules?: Readonly<Record<string, unknown>>;
}

/** One named request example (an OpenAPI Example Object). */
export interface KindExample {
  summary: string;
  value: Record<string, unknown>;
}

/** What a parser may need besides the body: the bounds of a bundle's tip. */
export type ParseContext = BundleLimits;

/**
 * Fills a spend plan from the parsed intent: mints, destinations, the venues the body alone decides (the
 * venue verdict on a routed venue comes later, from the run's `checkVenue`), signers, amount, rent and tip.
 */
export type SpendPlanner<I> = (intent: I, plan: SpendPlan) => void;

/** One execution kind. `I`: the parsed intent; `D`: the run's collaborators. */
export interface ExecutionKindDescriptor<I, D> {
  /** The kind's word: the execution record's kind and the word a refusal uses ("this trade needs …"). */
  kind: string;
  path: string;
  scope: RouteScope;
  /** The compute-unit limit its transactions are built with (the priority fee the policy step prices). */
  budget: OperationKind;
  /** The OpenAPI tag (the endpoint family) and summary. */
  tag: string;
  summary: string;
  body: BodySchema;
  /** The 200 answer's schema (a whitelist: unlisted fields are never serialized). */
  response: object;
  examples: Readonly<Record<string, KindExample>>;
  /** The body's one parser; throws the spec's 400. Called once per request (before the policy step). */
  parse: (body: RequestBody, context: ParseContext) => I;
  /** The spend plan the policy step judges; deny by default: a kind without one is refused at start-up. */
  plan: SpendPlanner<I>;
  /** The domain call with the parsed intent. */
  run: (deps: D, apiKeyId: number, intent: I) => Promise<unknown>;
  /** Refuse a body that is not an object before anything else, with the service's own text (trade). */
  objectBodyFirst?: boolean;
  /**
   * The execution record's kind when it is not `kind` (issue 32: a send records the outside wallet's trade as a
   * `trade`, so fills, positions and history treat it alike; a list: one of them, decided by what is sent, as an
   * outside create or bundle records a `create` or `bundle`); null: the kind records nothing (a build).
   */
  records?: ExecutionKind | readonly ExecutionKind[] | null;
  /** The body carries its own tip (a bundle's `bundleTip`, alias `tip`): the per-transaction `tip` is not read. */
  ownTip?: boolean;
}

/** A descriptor with its intent and collaborators erased, as the list holds it. */
// The list holds kinds of different intents; `unknown` in, `never` deps: only the HTTP layer's cast calls run.
export type ExecutionKindEntry = ExecutionKindDescriptor<unknown, never>;

/** Declares a kind: its descriptor, typed where it is written, erased for the list. */
export function defineKind<I, D>(descriptor: ExecutionKindDescriptor<I, D>): ExecutionKindEntry {
  return descriptor as unknown as ExecutionKindEntry;
}

/**
 * The words the kinds of `list` record executions under, in the list's order (a kind records its own word unless
 * it says otherwise; a build records nothing): the history and events `?kind=` filters' allowed values.
 */
export function recordedKinds(
  list: readonly Pick<ExecutionKindEntry, "kind" | "records">[],
): readonly string[] {
  const words = list.flatMap((k) =>
    k.records === undefined
      ? [k.kind]
      : k.records === null
        ? []
        : typeof k.records === "string"
          ? [k.records]
          : k.records,
  );
  return [...new Set(words)];
}

/** The start-up check of a kind list: a kind without a spend plan, or two on one path or word, is refused. */
export function checkKinds(kinds: readonly ExecutionKindEntry[]): void {
  const paths = new Set<string>();
  const words = new Set<string>();
  for (const k of kinds) {
    if (typeof k.plan !== "function")
      throw new Error(`execution kind "${k.kind}" (${k.path}) has no spend plan: refused (deny by default)`);
    if (paths.has(k.path)) throw new Error(`two execution kinds on ${k.path}`);
    if (words.has(k.kind)) throw new Error(`two execution kinds named "${k.kind}"`);
    paths.add(k.path);
    words.add(k.kind);
  }
}
