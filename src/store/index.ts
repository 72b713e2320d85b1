export { openStore, sqliteTarget, type OpenStoreOptions } from "./engine/open-store.js";
export { isoNoZone } from "./executions/kysely-executions.js";
export * from "./types.js";
export * from "./events/event-types.js";
export * from "./webhooks/webhook-types.js";
export * from "./outside/outside-build-types.js";
