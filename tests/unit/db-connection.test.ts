import { describe, expect, it } from "vitest";
import { DatabaseUrlError, describeDatabase, directDatabaseUrl } from "@/scripts/db/connection.mjs";

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
