import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, type TestDatabase } from "../../harness/support/database";
import {
  actualSchemaFacts,
  describeSchemaDrift,
  expectedSchemaFacts,
  type SchemaFacts,
} from "../../harness/support/schema-drift";

// Prisma's engine cannot run here, so nothing else notices when schema.prisma and the
// hand-written SQL in prisma/migrations disagree. This test does; see docs/database.md.

const schemaText = readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");

let database: TestDatabase;
let migrated: SchemaFacts;

beforeAll(async () => {
  database = await createTestDatabase("drift");
  await applyMigrations({ connectionString: database.url });
  migrated = await actualSchemaFacts(database.url);
});
afterAll(() => database.drop());

it("schema.prisma and the migrations describe the same database", () => {
  expect(describeSchemaDrift(expectedSchemaFacts(schemaText), migrated)).toEqual([]);
});

/** Edits the schema text, failing loudly if the edit no longer applies (so no case tests nothing). */
function edit(from: string, to: string): string {
  if (!schemaText.includes(from))
    throw new Error(`schema.prisma no longer contains ${JSON.stringify(from)}; update this test`);
  return schemaText.replace(from, to);
}

describe("the comparison detects drift", () => {
  it.each([
    {
      change: "an extra field",
      schema: () => edit("slug        String      @unique", "slug        String      @unique\n  sku         String?"),
      reported: 'missing from the migrations: column "products"."sku" (text NULL)',
    },
    {
      change: "a changed nullability",
      schema: () => edit("customerName          String?", "customerName          String "),
      reported: 'column "orders"."customer_name": schema.prisma says text NOT NULL, the migrations made text NULL',
    },
    {
      change: "a removed index",
      schema: () => edit("@@index([referenceNumber])", ""),
      reported: 'not in schema.prisma: index "orders_reference_number_idx" (on "orders" (reference_number))',
    },
    {
      change: "a changed onDelete",
      schema: () =>
        edit(
          "references: [id], onDelete: Cascade)\n  product   Product",
          "references: [id], onDelete: Restrict)\n  product   Product",
        ),
      reported:
        'foreign key "cart_items_cart_id_fkey": schema.prisma says "cart_items" (cart_id) → "carts" (id) ON DELETE RESTRICT ON UPDATE CASCADE, ' +
        'the migrations made "cart_items" (cart_id) → "carts" (id) ON DELETE CASCADE ON UPDATE CASCADE',
    },
    {
      change: "an Unsupported column made required",
      schema: () => edit('Unsupported("tsvector")? @map', 'Unsupported("tsvector") @map'),
      reported:
        'column "products"."search_document": schema.prisma says tsvector NOT NULL, the migrations made tsvector NULL',
    },
    {
      change: "a new enum value",
      schema: () => edit("  CAN\n", "  CAN\n  EXP\n"),
      reported: 'enum "OrderStatus": schema.prisma says PEN, CON, CAN, EXP, the migrations made PEN, CON, CAN',
    },
    {
      change: "a changed default",
      schema: () => edit("@default(8)", "@default(5)"),
      reported:
        'column "jobs"."max_attempts": schema.prisma says integer NOT NULL DEFAULT 5, the migrations made integer NOT NULL DEFAULT 8',
    },
    {
      change: "a changed native type",
      schema: () => edit('cartId    String   @map("cart_id") @db.Uuid', 'cartId    String   @map("cart_id")'),
      reported: 'column "cart_items"."cart_id": schema.prisma says text NOT NULL, the migrations made uuid NOT NULL',
    },
  ])("reports $change", ({ schema, reported }) => {
    expect(describeSchemaDrift(expectedSchemaFacts(schema()), migrated)).toEqual([reported]);
  });
});
