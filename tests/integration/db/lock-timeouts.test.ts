import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { importCatalogCsv } from "@/lib/catalog/csv/import";
import { db } from "@/lib/db/client";
import { postgresImageStore } from "@/lib/catalog/images/postgres-store";
import { insertTestProduct } from "../../../harness/support/orders";

// The app's sessions under lock_timeout (DATABASE_LOCK_TIMEOUT_MS): work outside the webhook that
// meets a row another transaction keeps locked gives up after the wait and says what to do,
// instead of waiting (and holding its own locks) for as long as the other transaction lasts.
// PostgreSQL only: on embedded PGlite no session can wait for another (one shared session).

const embedded = !process.env.TEST_SERVER_DATABASE_URL;
const LOCK_TIMEOUT_MS = 1_000;

beforeAll(() => vi.stubEnv("DATABASE_LOCK_TIMEOUT_MS", String(LOCK_TIMEOUT_MS)));
afterAll(async () => {
  await db().$disconnect();
  vi.unstubAllEnvs();
});

describe.skipIf(embedded)("under the sessions' lock_timeout", () => {
  it("a catalogue import that meets a product another transaction keeps locked gives up, writes nothing and says to import again", async () => {
    const product = await insertTestProduct({ priceAoa: 2_500, stock: 7 });
    const csv = `slug,name,description,price_aoa,stock\n${product.slug},${product.name},Outro texto.,3000,9\n`;

    const locker = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: "slow transaction" });
    await locker.connect();
    let outcome;
    const started = performance.now();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM products WHERE id = $1 FOR UPDATE", [product.id]);
      outcome = await Promise.race([
        importCatalogCsv(
          new TextEncoder().encode(csv),
          { dryRun: false, actor: null },
          { db: db(), images: postgresImageStore(db()) },
        ),
        new Promise((resolve) => setTimeout(() => resolve("still waiting"), 10_000)),
      ]);
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }
    expect(outcome).toMatchObject({ ok: false, conflict: true, message: expect.stringMatching(/import again/) });
    expect(performance.now() - started).toBeLessThan(LOCK_TIMEOUT_MS + 5_000);
    expect(await db().product.findUniqueOrThrow({ where: { id: product.id } })).toMatchObject({
      priceAoa: 2_500,
      stock: 7,
    });
  });
});
