/**
 * The store under the orders benches' sandbox: in memory (as every report before 29 Nov), `npm start`'s SQLite file,
 * or PostgreSQL (the database of TEST_DATABASE_URL, in a fresh schema dropped after).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropSchema, freshSchemaName, TEST_DATABASE_URL } from "../test/helpers/pg.js";

/** The sandbox's store as `--store` names it: its database URL (none: in memory), schema, and its removal. */
export interface SandboxStore {
  readonly kind: "memory" | "file" | "postgres";
  readonly databaseUrl: string | undefined;
  readonly pgSchema: string | undefined;
  remove(): Promise<void>;
}

/** Where each store is described in a report. */
export const STORE_LINES: Record<SandboxStore["kind"], string> = {
  memory: "Store: SQLite in memory (no commit reaches a disk; `--store file` for `npm start`'s default).",
  file: "Store: a SQLite file, every commit synced to disk (`npm start`'s default).",
  postgres: "Store: PostgreSQL (TEST_DATABASE_URL, a schema of its own), its default commit durability.",
};

/**
 * `memory` (an in-memory SQLite database, whose commits never reach a disk), `file` (a SQLite file in a fresh
 * temporary directory, every commit synced to disk as `npm start` keeps it) or `postgres` (`databaseUrl`, which
 * must be given, in a fresh schema); throws on anything else.
 */
export function sandboxStore(store: string, databaseUrl = TEST_DATABASE_URL): SandboxStore {
  const nothing = async (): Promise<void> => undefined;
  if (store === "memory")
    return { kind: "memory", databaseUrl: undefined, pgSchema: undefined, remove: nothing };
  if (store === "postgres") {
    if (databaseUrl === undefined || databaseUrl === "")
      throw new Error("--store postgres: set TEST_DATABASE_URL to the PostgreSQL database to use");
    const schema = freshSchemaName("bench");
    return { kind: "postgres", databaseUrl, pgSchema: schema, remove: () => dropSchema(databaseUrl, schema) };
  }
  if (store !== "file") throw new Error(`--store: memory, file or postgres (got "${store}")`);
  const dir = mkdtempSync(join(tmpdir(), "orders-bench-"));
  return {
    kind: "file",
    databaseUrl: `sqlite:${join(dir, "lasertrade.sqlite")}`,
    pgSchema: undefined,
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** What startE2e is told of a sandbox's store (nothing: in memory). */
export interface StoreOptions {
  databaseUrl?: string;
  pgSchema?: string;
}

/** startE2e's options for `store`. */
export function storeOptions(store: SandboxStore): StoreOptions {
  return {
    ...(store.databaseUrl !== undefined ? { databaseUrl: store.databaseUrl } : {}),
    ...(store.pgSchema !== undefined ? { pgSchema: store.pgSchema } : {}),
  };
}
