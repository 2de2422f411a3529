import { get_dmmf } from "@prisma/prisma-schema-wasm";
import pg from "pg";
import { withPgClient } from "../../scripts/db/pg-client.mjs";

/**
 * Detects drift between prisma/schema.prisma and the hand-written SQL migrations, without
 * Prisma's schema engine (which cannot be downloaded here): both sides are reduced to the same
 * flat list of facts, one per database object, and compared.
 *
 * A fact is a key naming the object and a text describing it, for example
 *   column "orders"."customer_name"   →  text NULL
 *   index "orders_status_updated_at_idx"  →  on "orders" (status, updated_at)
 * CHECK constraints, indexes on expressions (the search indexes, the municipalities' key), partial
 * indexes (one active variant per combination) and `_prisma_migrations` are left out: Prisma has
 * no say over them.
 */
export type SchemaFacts = Map<string, string>;

const MIGRATIONS_TABLE = "_prisma_migrations";
/** PostgreSQL's NAMEDATALEN - 1; Prisma shortens generated constraint names to fit. */
const MAX_IDENTIFIER_LENGTH = 63;

// The parts of Prisma's DMMF (datamodel only) that decide the database schema.
type DmmfDefault = string | number | boolean | { name: string; args: (string | number)[] };
interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "enum" | "object" | "unsupported";
  type: string;
  nativeType?: [string, string[]] | null;
  isList: boolean;
  isRequired: boolean;
  isUpdatedAt: boolean;
  default?: DmmfDefault | DmmfDefault[];
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string;
  fields: { name: string }[];
}
interface DmmfEnum {
  name: string;
  dbName: string | null;
  values: { name: string; dbName: string | null }[];
}
interface Datamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

/** Prisma's scalar types without @db.*, as PostgreSQL's format_type() prints them. */
const SCALAR_SQL_TYPES: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Decimal: "numeric(65,30)",
  Boolean: "boolean",
  DateTime: "timestamp(3) without time zone",
  Json: "jsonb",
  Bytes: "bytea",
};

/** @db.* native types, as format_type() prints them. Unknown ones throw so this list gets extended. */
const NATIVE_SQL_TYPES: Record<string, (args: string[]) => string> = {
  Uuid: () => "uuid",
  Text: () => "text",
  VarChar: (args) => (args.length ? `character varying(${args.join(",")})` : "character varying"),
  Char: (args) => `character(${args[0] ?? 1})`,
  SmallInt: () => "smallint",
  Integer: () => "integer",
  BigInt: () => "bigint",
  Decimal: (args) => (args.length ? `numeric(${args.join(",")})` : "numeric"),
  DoublePrecision: () => "double precision",
  Real: () => "real",
  Boolean: () => "boolean",
  Date: () => "date",
  Timestamp: (args) => (args.length ? `timestamp(${args[0]}) without time zone` : "timestamp without time zone"),
  Timestamptz: (args) => (args.length ? `timestamp(${args[0]}) with time zone` : "timestamp with time zone"),
  Json: () => "json",
  JsonB: () => "jsonb",
  ByteA: () => "bytea",
};

/** Prisma's referential actions as PostgreSQL spells them (pg_constraint codes on the right). */
const REFERENTIAL_ACTIONS: Record<string, string> = {
  Cascade: "CASCADE",
  Restrict: "RESTRICT",
  NoAction: "NO ACTION",
  SetNull: "SET NULL",
  SetDefault: "SET DEFAULT",
};
const PG_REFERENTIAL_ACTIONS: Record<string, string> = {
  c: "CASCADE",
  r: "RESTRICT",
  a: "NO ACTION",
  n: "SET NULL",
  d: "SET DEFAULT",
};

/** The schema Prisma would create for `schemaText`, as facts. Throws on an invalid schema. */
export function expectedSchemaFacts(schemaText: string): SchemaFacts {
  const { datamodel } = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: [["schema.prisma", schemaText]] }))) as {
    datamodel: Datamodel;
  };
  const facts: SchemaFacts = new Map();
  const enumNames = new Map(datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));
  const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
  const modelsByName = new Map(datamodel.models.map((model) => [model.name, model]));
  const unsupported = unsupportedFields(schemaText);
  const columnOf = (model: DmmfModel, fieldName: string) => {
    const field = [...model.fields, ...(unsupported.get(model.name) ?? [])].find((f) => f.name === fieldName);
    if (!field) throw new Error(`${model.name} has no field ${fieldName}`);
    return field.dbName ?? field.name;
  };

  for (const e of datamodel.enums) {
    facts.set(enumKey(e.dbName ?? e.name), e.values.map((value) => value.dbName ?? value.name).join(", "));
  }

  for (const model of datamodel.models) {
    const table = tableOf(model);
    facts.set(tableKey(table), "exists");
    for (const field of [...model.fields, ...(unsupported.get(model.name) ?? [])]) {
      if (field.kind === "object") continue;
      const type = sqlTypeOf(model, field, enumNames);
      const sqlDefault = sqlDefaultOf(table, field, type);
      facts.set(columnKey(table, field.dbName ?? field.name), describeColumn(type, !field.isRequired, sqlDefault));
    }
    for (const field of model.fields) {
      if (field.kind !== "object" || !field.relationFromFields?.length) continue;
      const target = modelsByName.get(field.type);
      if (!target) throw new Error(`${model.name}.${field.name} points at unknown model ${field.type}`);
      const columns = field.relationFromFields.map((name) => columnOf(model, name));
      const referencedColumns = (field.relationToFields ?? []).map((name) => columnOf(target, name));
      // Prisma's defaults when @relation names no action.
      const onDelete = field.relationOnDelete ?? (field.isRequired ? "Restrict" : "SetNull");
      const onUpdate = field.relationOnUpdate ?? "Cascade";
      facts.set(
        foreignKeyKey(prismaConstraintName(table, columns, "fkey")),
        describeForeignKey(
          table,
          columns,
          tableOf(target),
          referencedColumns,
          REFERENTIAL_ACTIONS[onDelete],
          REFERENTIAL_ACTIONS[onUpdate],
        ),
      );
    }
  }

  for (const index of datamodel.indexes) {
    const model = modelsByName.get(index.model);
    if (!model) throw new Error(`index on unknown model ${index.model}`);
    const table = tableOf(model);
    const columns = index.fields.map((field) => columnOf(model, field.name));
    switch (index.type) {
      case "id":
        facts.set(primaryKeyKey(index.dbName ?? `${table}_pkey`), describeIndex(table, columns));
        break;
      case "unique":
        facts.set(
          uniqueIndexKey(index.dbName ?? prismaConstraintName(table, columns, "key")),
          describeIndex(table, columns),
        );
        break;
      case "normal":
        facts.set(indexKey(index.dbName ?? prismaConstraintName(table, columns, "idx")), describeIndex(table, columns));
        break;
      default:
        throw new Error(`schema-drift does not understand ${index.type} indexes yet (${index.model})`);
    }
  }
  return facts;
}

/** What the database at `connectionString` holds in its current schema, as facts. */
export async function actualSchemaFacts(connectionString: string): Promise<SchemaFacts> {
  return withPgClient(connectionString, readSchemaFacts);
}

/** Every difference, one readable line each; empty when the two agree. */
export function describeSchemaDrift(fromPrisma: SchemaFacts, fromDatabase: SchemaFacts): string[] {
  const differences: string[] = [];
  for (const [key, expected] of fromPrisma) {
    const actual = fromDatabase.get(key);
    if (actual === undefined) differences.push(`missing from the migrations: ${key} (${expected})`);
    else if (actual !== expected)
      differences.push(`${key}: schema.prisma says ${expected}, the migrations made ${actual}`);
  }
  for (const [key, actual] of fromDatabase) {
    if (!fromPrisma.has(key)) differences.push(`not in schema.prisma: ${key} (${actual})`);
  }
  return differences.sort();
}

async function readSchemaFacts(client: pg.Client): Promise<SchemaFacts> {
  const facts: SchemaFacts = new Map();

  const enums = await client.query<{ name: string; labels: string[] }>(`
    SELECT t.typname::text AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
    FROM pg_type t
    JOIN pg_enum e ON e.enumtypid = t.oid
    JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = current_schema()
    GROUP BY t.typname`);
  for (const row of enums.rows) facts.set(enumKey(row.name), row.labels.join(", "));

  const columns = await client.query<{
    table: string;
    column: string;
    type: string;
    nullable: boolean;
    default: string | null;
  }>(
    `
    SELECT c.relname::text AS table, a.attname::text AS column, format_type(a.atttypid, a.atttypmod) AS type,
           NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema() AND c.relname <> $1
      AND a.attnum > 0 AND NOT a.attisdropped`,
    [MIGRATIONS_TABLE],
  );
  for (const row of columns.rows) {
    facts.set(tableKey(row.table), "exists");
    facts.set(columnKey(row.table, row.column), describeColumn(row.type, row.nullable, row.default));
  }

  const indexes = await client.query<{
    table: string;
    name: string;
    primary: boolean;
    unique: boolean;
    columns: string[];
  }>(
    `
    SELECT t.relname::text AS table, i.relname::text AS name, x.indisprimary AS primary, x.indisunique AS unique,
           array(SELECT a.attname::text
                 FROM unnest(x.indkey::smallint[]) WITH ORDINALITY AS k(attnum, position)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                 ORDER BY k.position) AS columns
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = current_schema() AND t.relname <> $1 AND x.indexprs IS NULL AND x.indpred IS NULL`,
    [MIGRATIONS_TABLE],
  );
  for (const row of indexes.rows) {
    const key = row.primary ? primaryKeyKey(row.name) : row.unique ? uniqueIndexKey(row.name) : indexKey(row.name);
    facts.set(key, describeIndex(row.table, row.columns));
  }

  const foreignKeys = await client.query<{
    name: string;
    table: string;
    columns: string[];
    referenced_table: string;
    referenced_columns: string[];
    on_delete: string;
    on_update: string;
  }>(`
    SELECT c.conname::text AS name, t.relname::text AS table, r.relname::text AS referenced_table,
           c.confdeltype::text AS on_delete, c.confupdtype::text AS on_update,
           array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, position)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.position) AS columns,
           array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, position)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.position) AS referenced_columns
    FROM pg_constraint c
    JOIN pg_class t ON t.oid = c.conrelid
    JOIN pg_class r ON r.oid = c.confrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE c.contype = 'f' AND n.nspname = current_schema()`);
  for (const row of foreignKeys.rows) {
    facts.set(
      foreignKeyKey(row.name),
      describeForeignKey(
        row.table,
        row.columns,
        row.referenced_table,
        row.referenced_columns,
        PG_REFERENTIAL_ACTIONS[row.on_delete],
        PG_REFERENTIAL_ACTIONS[row.on_update],
      ),
    );
  }
  return facts;
}

/**
 * The `Unsupported("…")` fields of each model, which the DMMF leaves out (Prisma Client cannot
 * read or write them), read from the schema's text: name, type, optional or not, and @map.
 */
function unsupportedFields(schemaText: string): Map<string, DmmfField[]> {
  const fields = new Map<string, DmmfField[]>();
  for (const [, model, body] of schemaText.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    for (const [, name, type, optional, rest] of body!.matchAll(/^\s*(\w+)\s+Unsupported\("([^"]+)"\)(\?)?(.*)$/gm)) {
      const dbName = /@map\("([^"]+)"\)/.exec(rest!)?.[1] ?? null;
      fields.set(model!, [
        ...(fields.get(model!) ?? []),
        {
          name: name!,
          dbName,
          kind: "unsupported",
          type: type!,
          isList: false,
          isRequired: !optional,
          isUpdatedAt: false,
        },
      ]);
    }
  }
  return fields;
}

function sqlTypeOf(model: DmmfModel, field: DmmfField, enumNames: Map<string, string>): string {
  let type: string | undefined;
  if (field.kind === "enum") {
    const enumName = enumNames.get(field.type);
    type = enumName === undefined ? undefined : quoteIdentifier(enumName);
  } else if (field.nativeType) {
    const [name, args] = field.nativeType;
    type = NATIVE_SQL_TYPES[name]?.(args);
  } else if (field.kind === "scalar") {
    type = SCALAR_SQL_TYPES[field.type];
  } else if (field.kind === "unsupported") {
    // Unsupported("tsvector"): the type is the database's own name for it.
    type = field.type;
  }
  if (type === undefined) {
    throw new Error(
      `schema-drift does not know the SQL type of ${model.name}.${field.name}; teach it in harness/support/schema-drift.ts`,
    );
  }
  return field.isList ? `${type}[]` : type;
}

/** The default as pg_get_expr() prints it, or null when the database has none (e.g. @default(uuid()) is filled in by Prisma). */
function sqlDefaultOf(table: string, field: DmmfField, sqlType: string): string | null {
  const value = field.default;
  if (value === undefined) return null;
  if (typeof value === "object" && !Array.isArray(value)) {
    switch (value.name) {
      case "dbgenerated":
        return String(value.args[0]);
      case "now":
        return "CURRENT_TIMESTAMP";
      case "autoincrement":
        return `nextval('${table}_${field.dbName ?? field.name}_seq'::regclass)`;
      case "uuid":
      case "cuid":
      case "ulid":
      case "nanoid":
        return null;
    }
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'::${sqlType}`;
  throw new Error(`schema-drift does not understand the default of ${table}.${field.name}: ${JSON.stringify(value)}`);
}

/** Prisma's generated names: table_column1_column2_suffix, shortened to PostgreSQL's limit. */
function prismaConstraintName(table: string, columns: string[], suffix: "key" | "idx" | "fkey"): string {
  const base = [table, ...columns].join("_");
  return `${base.slice(0, MAX_IDENTIFIER_LENGTH - suffix.length - 1)}_${suffix}`;
}

/** Identifiers as format_type() prints them: quoted unless plain lower-case. */
function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

const enumKey = (name: string) => `enum "${name}"`;
const tableKey = (table: string) => `table "${table}"`;
const columnKey = (table: string, column: string) => `column "${table}"."${column}"`;
const primaryKeyKey = (name: string) => `primary key "${name}"`;
const uniqueIndexKey = (name: string) => `unique index "${name}"`;
const indexKey = (name: string) => `index "${name}"`;
const foreignKeyKey = (name: string) => `foreign key "${name}"`;

function describeColumn(type: string, nullable: boolean, sqlDefault: string | null): string {
  return `${type} ${nullable ? "NULL" : "NOT NULL"}${sqlDefault === null ? "" : ` DEFAULT ${sqlDefault}`}`;
}

function describeIndex(table: string, columns: string[]): string {
  return `on "${table}" (${columns.join(", ")})`;
}

function describeForeignKey(
  table: string,
  columns: string[],
  referencedTable: string,
  referencedColumns: string[],
  onDelete: string | undefined,
  onUpdate: string | undefined,
): string {
  return `"${table}" (${columns.join(", ")}) → "${referencedTable}" (${referencedColumns.join(", ")}) ON DELETE ${onDelete} ON UPDATE ${onUpdate}`;
}
