/**
 * Kysely's migrator asks the dialect's introspector whether its own tables exist. The stock PostgreSQL
 * introspector lists every column of every schema in the database and calls `has_schema_privilege(name)` and
 * `pg_get_serial_sequence` per row; a schema dropped by someone else while that query runs (another deployment
 * in the same database, or a test cleaning up) makes it fail with `schema "..." does not exist`, and the store
 * would not open. This introspector reads the catalog of the migrations' own schema only, with no function
 * calls on other schemas' names, so nothing outside that schema can make it fail.
 */
import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from "kysely";

/** Tables and views of one schema; columns are left empty (the migrator reads names only). */
function schemaIntrospector(db: Kysely<unknown>, schema: string): DatabaseIntrospector {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'v', 'p')`.execute(db);
    return rows.map((r) => ({ name: r.name, schema, isView: r.kind === "v", columns: [] }));
  };
  return {
    async getSchemas(): Promise<SchemaMetadata[]> {
      const { rows } = await sql<{ name: string }>`
        select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    getTables,
    async getMetadata(): Promise<DatabaseMetadata> {
      return { tables: await getTables() };
    },
  };
}

/** The PostgreSQL dialect with introspection confined to `schema` (the one the migrations run in). */
export function schemaScopedPostgresDialect(config: PostgresDialectConfig, schema: string): PostgresDialect {
  return new (class extends PostgresDialect {
    // Kysely's own signature: the introspector is handed the untyped instance.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
      return schemaIntrospector(db, schema);
    }
  })(config);
}
