import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BREAKING_RULES, lintMigrations } from "@/scripts/db/lint.mjs";

// `npm run db:lint`: squawk (the real binary from the npm registry) and our own rules over the
// migrations not yet released. Each case writes a throw-away migration into a copy of the
// repository's migrations and .squawk.toml, so the guard is shown to refuse what it must.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const scratchRoots: string[] = [];

afterAll(async () => {
  await Promise.all(scratchRoots.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A folder with the repository's .squawk.toml and prisma/migrations, and `sql` as a new migration. */
async function withNewMigration(name: string, sql: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "db-lint-"));
  scratchRoots.push(dir);
  await cp(path.join(root, ".squawk.toml"), path.join(dir, ".squawk.toml"));
  await cp(path.join(root, "prisma", "migrations"), path.join(dir, "prisma", "migrations"), { recursive: true });
  await mkdir(path.join(dir, "prisma", "migrations", name));
  await writeFile(path.join(dir, "prisma", "migrations", name, "migration.sql"), sql);
  return dir;
}

const rulesOf = async (dir: string) => (await lintMigrations({ root: dir })).problems.map((problem) => problem.rule);

describe("the repository's migrations", () => {
  it("pass: the released ones are listed in .squawk.toml, not edited, and every one exists", async () => {
    const result = await lintMigrations({ root });
    expect(result.problems).toEqual([]);
    expect(result.released.length).toBeGreaterThanOrEqual(7);
  });
});

describe("npm run db:lint", () => {
  it("refuses a new migration that renames a column, with squawk's message, and exits 1", async () => {
    const dir = await withNewMigration(
      "29990101000000_rename_note",
      '-- AlterTable\nALTER TABLE "orders" RENAME COLUMN "cancel_reason" TO "why_cancelled";\n',
    );
    const run = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(
        process.execPath,
        [path.join(root, "scripts", "lint-migrations.mjs")],
        { cwd: dir, timeout: 30_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      ),
    );
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain(
      "prisma/migrations/29990101000000_rename_note/migration.sql:2:22: renaming-column: Renaming a column may break existing clients.",
    );
    expect(run.output).toContain("https://squawkhq.com/docs/renaming-column");
    // The repository's own unreleased migrations are checked too, and pass.
    expect(run.output).toMatch(/1 problem in \d+ migrations? checked .*expand now, contract in a later release/);
  });
});

describe("lintMigrations refuses what breaks the release still serving", () => {
  it.each([
    ["drops a column", 'ALTER TABLE "orders" DROP COLUMN "attention_note";', "ban-drop-column"],
    ["drops a table", 'DROP TABLE "rate_limits";', "ban-drop-table"],
    ["renames a table", 'ALTER TABLE "emails" RENAME TO "mails";', "renaming-table"],
    ["changes a column's type", 'ALTER TABLE "orders" ALTER COLUMN "amount_aoa" TYPE BIGINT;', "changing-column-type"],
    [
      "adds a NOT NULL column without a default",
      'ALTER TABLE "orders" ADD COLUMN "channel" TEXT NOT NULL;',
      "adding-required-field",
    ],
    [
      "sets NOT NULL on a column",
      'ALTER TABLE "orders" ALTER COLUMN "customer_phone" SET NOT NULL;',
      "adding-not-nullable-field",
    ],
    [
      "drops a column's default",
      'ALTER TABLE "orders" ALTER COLUMN "hold_expires_at" DROP DEFAULT;',
      "ban-drop-column-default",
    ],
    [
      "builds an index on an existing table without CONCURRENTLY",
      'CREATE INDEX "orders_customer_phone_idx" ON "orders"("customer_phone");',
      "require-concurrent-index-creation",
    ],
    [
      "adds a CHECK constraint that scans the table while blocking writes",
      'ALTER TABLE "orders" ADD CONSTRAINT "orders_x_check" CHECK ("amount_aoa" < 100000000);',
      "constraint-missing-not-valid",
    ],
  ])("%s", async (_what, sql, rule) => {
    expect(await rulesOf(await withNewMigration("29990101000000_change", `${sql}\n`))).toContain(rule);
  });

  it("accepts the expand step: a nullable column, a column with a constant default, a new table and its index", async () => {
    const dir = await withNewMigration(
      "29990101000000_expand",
      [
        'ALTER TABLE "orders" ADD COLUMN "why_cancelled" TEXT;',
        'ALTER TABLE "orders" ADD COLUMN "channel" TEXT NOT NULL DEFAULT \'web\';',
        'CREATE TABLE "pickup_points" ("id" UUID NOT NULL DEFAULT gen_random_uuid(), "name" TEXT NOT NULL, CONSTRAINT "pickup_points_pkey" PRIMARY KEY ("id"));',
        'CREATE INDEX "pickup_points_name_idx" ON "pickup_points"("name");',
        'ALTER TABLE "orders" ADD CONSTRAINT "orders_x_check" CHECK ("amount_aoa" < 100000000) NOT VALID;',
        "",
      ].join("\n"),
    );
    expect(await lintMigrations({ root: dir })).toMatchObject({
      checked: expect.arrayContaining(["29990101000000_expand"]),
      problems: [],
    });
  });

  it("accepts an index built CONCURRENTLY in a -- no-transaction migration, and asks it to be re-runnable", async () => {
    const robust = await withNewMigration(
      "29990101000000_index",
      '-- no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_customer_phone_idx" ON "orders"("customer_phone");\n',
    );
    expect(await rulesOf(robust)).toEqual([]);
    const fragile = await withNewMigration(
      "29990101000000_index",
      '-- no-transaction\nCREATE INDEX CONCURRENTLY "orders_customer_phone_idx" ON "orders"("customer_phone");\n',
    );
    expect(await rulesOf(fragile)).toEqual(["prefer-robust-stmts"]);
  });

  it("lets a breaking rule be switched off only in a contract migration that names the release", async () => {
    const drop = '-- squawk-ignore ban-drop-column\nALTER TABLE "orders" DROP COLUMN "attention_note";\n';
    const unsaid = await lintMigrations({ root: await withNewMigration("29990101000000_drop_note", drop) });
    expect(unsaid.problems).toMatchObject([
      { rule: "contract-migration", line: 1, message: expect.stringContaining("Switches off ban-drop-column") },
    ]);

    const contract = await withNewMigration(
      "29990101000000_drop_note",
      `-- contract: orders.attention_note, unused since release 2026-12-01 (commit 1a2b3c4)\n${drop}`,
    );
    expect(await rulesOf(contract)).toEqual([]);

    // Our own rule obeys squawk's comment the same way.
    const dropDefault = await withNewMigration(
      "29990101000000_drop_default",
      '-- contract: every insert sets orders.hold_expires_at since release 2026-12-01\n-- squawk-ignore ban-drop-column-default\nALTER TABLE "orders" ALTER COLUMN "hold_expires_at" DROP DEFAULT;\n',
    );
    expect(await rulesOf(dropDefault)).toEqual([]);

    // A file-wide ignore of every rule is a contract migration's too.
    const everything = await withNewMigration(
      "29990101000000_all",
      '-- squawk-ignore-file\nDROP TABLE "rate_limits";\n',
    );
    expect(await rulesOf(everything)).toEqual(["contract-migration"]);
  });

  it("leaves a migration alone once .squawk.toml lists it as released, and names a listed one that does not exist", async () => {
    const name = "29990101000000_rename_note";
    const dir = await withNewMigration(
      name,
      'ALTER TABLE "orders" RENAME COLUMN "cancel_reason" TO "why_cancelled";\n',
    );
    const config = path.join(dir, ".squawk.toml");
    const listed = (await readFile(config, "utf8")).replace(
      "excluded_paths = [\n",
      `excluded_paths = [\n  "prisma/migrations/${name}/migration.sql",\n  "prisma/migrations/29990102000000_typo/migration.sql",\n`,
    );
    await writeFile(config, listed);
    const result = await lintMigrations({ root: dir });
    expect(result.released).toContain(name);
    expect(result.problems.map((problem) => problem.rule)).toEqual(["released-migration-missing"]);
  });

  it("passes the examples of docs/database.md: the expand step, the contract step (only as one), an index built concurrently", async () => {
    const docs = await readFile(path.join(root, "docs", "database.md"), "utf8");
    const [expand, contract, index] = [...docs.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1]!);
    expect(expand).toContain('ADD COLUMN "why_cancelled"');
    expect(contract).toContain('DROP COLUMN "cancel_reason"');
    expect(index).toMatch(/^-- no-transaction\n/);
    expect(await rulesOf(await withNewMigration("29990101000000_expand", expand!))).toEqual([]);
    expect(await rulesOf(await withNewMigration("29990102000000_contract", contract!))).toEqual([]);
    expect(await rulesOf(await withNewMigration("29990103000000_index", index!))).toEqual([]);
    const unsaid = contract!.replace(/^-- contract:.*\n/m, "");
    expect(await rulesOf(await withNewMigration("29990102000000_contract", unsaid))).toEqual(["contract-migration"]);
  });

  it("names every breaking rule it guards", () => {
    expect(BREAKING_RULES).toEqual(
      expect.arrayContaining(["renaming-column", "ban-drop-column", "changing-column-type", "adding-required-field"]),
    );
  });
});
