/**
 * The named component schemas of the OpenAPI document (issue 23). Each has an `$id`; `registerComponents`
 * adds them to the app before any route, routes reference them with `ref("Name")` (schemas.ts), and
 * @fastify/swagger emits them as `components.schemas.<$id>` (see `componentReference`). The same schemas
 * serialize the answers, so the document and the wire cannot drift apart.
 */
import type { FastifyInstance } from "fastify";
import { dryRunComponent, dryRunTransactionComponent } from "./dry-run-schema.js";
import { eventComponentOf } from "../routes/events.js";
import { executionComponentOf } from "../routes/executions.js";
import { healthComponent } from "../routes/health.js";
import { keyComponent, newKeyComponent, policyComponent } from "../routes/keys.js";
import {
  errorComponent,
  fillComponent,
  newWalletComponent,
  refusalComponent,
  serverErrorComponent,
  statusErrorComponents,
  walletComponent,
} from "./schemas.js";
import { feeReserveBreakdownComponent } from "../../domain/sol/kind-schemas.js";
import { watchedComponent } from "../routes/watch.js";
import { builtInitialBuyComponent, bundleLegResultComponent } from "../../domain/outside/leg-schemas.js";
import { positionComponent } from "../routes/positions.js";
import { routesComponent } from "../routes/routes.js";
import { raceVariantComponent } from "../../domain/trade/race-schema.js";
import { orderComponent, orderTriggerComponent } from "../routes/orders.js";
import { orderFireComponent } from "../routes/order-fires.js";
import { deliveryComponent, webhookComponent } from "../routes/webhooks.js";

/**
 * Every component, by its `$id` (a new shared shape goes here: see docs/decisions.md, issue 23); `kinds`: the
 * words executions are recorded under (the served kinds').
 */
const componentsOf = (kinds: readonly string[]): readonly { $id: string; description: string }[] => [
  errorComponent,
  ...statusErrorComponents,
  serverErrorComponent,
  refusalComponent,
  walletComponent,
  newWalletComponent,
  executionComponentOf(kinds),
  fillComponent,
  eventComponentOf(kinds),
  keyComponent,
  newKeyComponent,
  policyComponent,
  webhookComponent,
  deliveryComponent,
  dryRunComponent,
  dryRunTransactionComponent,
  healthComponent,
  watchedComponent,
  feeReserveBreakdownComponent,
  positionComponent,
  routesComponent,
  raceVariantComponent,
  orderTriggerComponent,
  orderComponent,
  bundleLegResultComponent,
  builtInitialBuyComponent,
  orderFireComponent,
];

/** Adds every component to the app's shared schemas (before the routes that reference them). */
export function registerComponents(app: FastifyInstance, kinds: readonly string[]): void {
  for (const schema of componentsOf(kinds)) app.addSchema(schema);
}

/**
 * @fastify/swagger's `refResolver`: a shared schema is emitted under its `$id` (`#/components/schemas/Execution`)
 * rather than the default `def-0`, `def-1`.
 */
export const componentReference = {
  buildLocalReference(json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, i: number): string {
    return typeof json.$id === "string" ? json.$id : `def-${i}`;
  },
};
