import { dbPool } from "@/lib/db/client";
import { getDatabaseEnv } from "@/lib/env";
import { MIGRATIONS_DIR, openHealthConnection, sharedHealthCheck } from "@/lib/health";
import { consoleLogger } from "@/lib/log";

// For load balancers, uptime monitors and container health checks (docs/self-hosting.md):
// 200 { database: "ok", migrations: "current" } (with "pool": "busy" when requests wait for the
// app's pool), 200 { database: "busy", reason } when the database is full or slow for everyone,
// or 503 with a reason: unreachable, migrations pending, sessions not in UTC.
export const dynamic = "force-dynamic";
export const maxDuration = 10;

const check = sharedHealthCheck(
  {
    // Its own short-lived connection, never one of the app's pool (lib/health.ts).
    connect: (timeoutMs) => openHealthConnection(getDatabaseEnv().databaseUrl, timeoutMs),
    appPool: dbPool,
    migrationsDir: MIGRATIONS_DIR,
    timeoutMs: 3_000,
    log: consoleLogger,
  },
  // One check per instance per second at most, however often it is asked.
  1_000,
);

export async function GET(): Promise<Response> {
  const report = await check();
  return Response.json(report.body, { status: report.healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
