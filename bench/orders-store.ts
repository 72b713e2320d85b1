/** The store under the orders benches' sandbox: in memory (as every report before 29 Nov) or `npm start`'s file. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The sandbox's store as `--store` names it: its database URL (none: in memory) and how to remove it after. */
export interface SandboxStore {
  readonly kind: "memory" | "file";
  readonly databaseUrl: string | undefined;
  remove(): void;
}

/**
 * `memory` (an in-memory SQLite database, whose commits never reach a disk) or `file` (a SQLite file in a fresh
 * temporary directory, every commit synced to disk as `npm start` keeps it); throws on anything else.
 */
export function sandboxStore(store: string): SandboxStore {
  if (store === "memory") return { kind: "memory", databaseUrl: undefined, remove: () => undefined };
  if (store !== "file") throw new Error(`--store: memory or file (got "${store}")`);
  const dir = mkdtempSync(join(tmpdir(), "orders-bench-"));
  return {
    kind: "file",
    databaseUrl: `sqlite:${join(dir, "lasertrade.sqlite")}`,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
