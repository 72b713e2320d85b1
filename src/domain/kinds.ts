/**
 * The execution kinds the service offers: one line each (issue 30). This list produces the execute routes, their
 * OpenAPI bodies, answers and examples, the known body fields and the spend planning (src/http/execute/).
 * A new kind: its own folder under src/domain/ with a `kind.ts` descriptor (domain/execution/kind.ts), and a line
 * here.
 */
import { bundleKind } from "./bundle/kind.js";
import { claimKind } from "./cashback/claim-kind.js";
import { createKind } from "./create/kind.js";
import type { ExecutionKindEntry } from "./execution/kind.js";
import { buildKind, sendKind } from "./outside/kinds.js";
import { nonceAccountKind } from "./outside/nonce-kind.js";
import { bundleBuildKind, createBuildKind } from "./outside/leg-kinds.js";
import { consolidateKind } from "./sol/consolidate-kind.js";
import { splitKind } from "./sol/split-kind.js";
import { transferKind } from "./sol/transfer-kind.js";
import { tradeKind } from "./trade/kind.js";

/** Every execution kind, in the document's order. */
export const EXECUTION_KIND_LIST: readonly ExecutionKindEntry[] = [
  tradeKind,
  claimKind,
  consolidateKind,
  transferKind,
  splitKind,
  createKind,
  bundleKind,
  buildKind,
  createBuildKind,
  bundleBuildKind,
  sendKind,
  nonceAccountKind,
];
