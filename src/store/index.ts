export { openStore, sqliteTarget, type OpenStoreOptions } from "./open-store.js";
export { isoNoZone } from "./kysely-executions.js";
export * from "./types.js";
export * from "./event-types.js";
export * from "./webhook-types.js";
