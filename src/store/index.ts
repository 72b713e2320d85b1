export { openStore, type OpenStoreOptions } from "./open-store.js";
export { isoNoZone } from "./kysely-store.js";
export * from "./types.js";
