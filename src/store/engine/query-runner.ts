/** The store's seam between a compiled query and whatever runs it (Kysely, a group commit, a named statement). */
import type { CompiledQuery, QueryResult } from "kysely";

/** Runs one compiled query and answers its result (Kysely's `executeQuery`, or a group commit's). */
export type QueryRunner = <R>(query: CompiledQuery) => Promise<QueryResult<R>>;
