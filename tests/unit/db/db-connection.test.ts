import { describe, expect, it } from "vitest";
import { DatabaseUrlError, describeDatabase, directDatabaseUrl, migratorTimeouts } from "@/scripts/db/connection.mjs";
import { DEFAULT_TIMEOUTS } from "@/scripts/db/migrate.mjs";

// Where the database tools connect: the direct URL when a pooled one is the app's.

describe("directDatabaseUrl", () => {
  it("prefers DATABASE_URL_UNPOOLED, the direct connection, over the pooled DATABASE_URL", () => {
    expect(
      directDatabaseUrl({
        DATABASE_URL: "postgresql://shop@pooler.example.com/shop",
        DATABASE_URL_UNPOOLED: "postgresql://shop@direct.example.com/shop",
      }),
    ).toEqual({ url: "postgresql://shop@direct.example.com/shop", variable: "DATABASE_URL_UNPOOLED" });
    expect(directDatabaseUrl({ DATABASE_URL: "postgres://shop@db/shop" })).toEqual({
      url: "postgres://shop@db/shop",
      variable: "DATABASE_URL",
    });
  });

  it("names the variable, never its value, when the URL is missing or not PostgreSQL", () => {
    expect(() => directDatabaseUrl({})).toThrow(DatabaseUrlError);
    expect(() => directDatabaseUrl({})).toThrow(/DATABASE_URL is not set/);
    expect(() => directDatabaseUrl({ DATABASE_URL_UNPOOLED: "mysql://u:hunter2@db/x" })).toThrow(
      "DATABASE_URL_UNPOOLED must be a postgres:// or postgresql:// URL",
    );
  });

  it("describes a database by host and name for logs, without the user or the password", () => {
    expect(describeDatabase("postgresql://shop:s3cret@db.example.com:6543/shop?sslmode=require")).toBe(
      "db.example.com:6543/shop",
    );
  });
});

describe("migratorTimeouts", () => {
  it("reads whole seconds, and leaves unset or empty ones at their defaults", () => {
    expect(migratorTimeouts({})).toEqual(DEFAULT_TIMEOUTS);
    expect(DEFAULT_TIMEOUTS).toEqual({ lockWaitMs: 120_000, lockTimeoutMs: 5_000, statementTimeoutMs: 300_000 });
    expect(
      migratorTimeouts({
        MIGRATE_LOCK_WAIT_SECONDS: "30",
        MIGRATE_LOCK_TIMEOUT_SECONDS: " 2 ",
        MIGRATE_STATEMENT_TIMEOUT_SECONDS: "",
      }),
    ).toEqual({ lockWaitMs: 30_000, lockTimeoutMs: 2_000, statementTimeoutMs: 300_000 });
  });

  it.each(["0", "-5", "1.5", "5s", "1000000"])("refuses %j, naming the variable", (value) => {
    expect(() => migratorTimeouts({ MIGRATE_LOCK_TIMEOUT_SECONDS: value })).toThrow(
      /^MIGRATE_LOCK_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 999999/,
    );
  });
});
