import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { createTestDatabase, migrateBefore, type TestDatabase } from "../../../harness/support/database";

// A promo code's categories restrict the delete of a category (migrations 20261210000000 to
// 20261210000200): on a database the release before filled, its links are kept and validated, the
// cascading key is gone, and deleting a category a code names fails as the release before's own
// delete statement sends it, while a category no code names is still deleted.

const FIRST_MIGRATION = "20261210000000_promo_code_categories_restrict";

let database: TestDatabase;
let pool: pg.Pool;

const query = async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  (await pool.query<R>(sql, params)).rows;

const insertCategory = async (slug: string) =>
  (await query<{ id: string }>(`INSERT INTO categories (slug, name) VALUES ($1, $1) RETURNING id`, [slug]))[0]!.id;

let books: string;
let spare: string;
let code: string;

beforeAll(async () => {
  database = await createTestDatabase("promo-categories-migration");
  // Every migration before this step: the schema the release before runs on.
  await migrateBefore(database.url, FIRST_MIGRATION);
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  books = await insertCategory("livros");
  spare = await insertCategory("vazia");
  code = (
    await query<{ id: string }>(
      `INSERT INTO promo_codes (code, kind, value) VALUES ('LIVROS20', 'percent', 20) RETURNING id`,
    )
  )[0]!.id;
  await query(`INSERT INTO promo_code_categories (promo_code_id, category_id) VALUES ($1, $2)`, [code, books]);
  await applyMigrations({ connectionString: database.url });
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

it("leaves one foreign key on the category, validated, that refuses (NO ACTION), under Prisma's name", async () => {
  expect(
    await query(
      `SELECT conname, confdeltype, convalidated FROM pg_constraint
       WHERE conrelid = 'promo_code_categories'::regclass AND confrelid = 'categories'::regclass`,
    ),
  ).toEqual([{ conname: "promo_code_categories_category_id_fkey", confdeltype: "a", convalidated: true }]);
});

it("refuses the release before's delete of a category a code names, and keeps the code's link", async () => {
  await expect(query(`DELETE FROM "categories" WHERE "id" = $1`, [books])).rejects.toMatchObject({
    code: "23503",
    constraint: "promo_code_categories_category_id_fkey",
  });
  expect(await query(`SELECT category_id FROM promo_code_categories WHERE promo_code_id = $1`, [code])).toEqual([
    { category_id: books },
  ]);
  expect(await query(`DELETE FROM categories WHERE id = $1 RETURNING id`, [spare])).toEqual([{ id: spare }]);
});

it("gives the release before's Prisma delete the foreign key error it answers with a 409 (P2003), not a 500", async () => {
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 1 }) });
  try {
    await expect(client.category.delete({ where: { id: books } })).rejects.toMatchObject({ code: "P2003" });
  } finally {
    await client.$disconnect();
  }
});
