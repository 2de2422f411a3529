// Configuration of the Prisma CLI (generate; and migrate deploy on machines that can
// download Prisma's schema engine). The app itself reads DATABASE_URL through lib/env.ts.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
