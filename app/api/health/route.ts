import { dbPool } from "@/lib/db/client";
import { MIGRATIONS_DIR, sharedHealthCheck } from "@/lib/health";
import { consoleLogger } from "@/lib/log";

// For load balancers, uptime monitors and container health checks (docs/deploy.md):
// 200 { database: "ok", migrations: "current" }, or 503 with a reason.
export const dynamic = "force-dynamic";
export const maxDuration = 10;

const check = sharedHealthCheck(
  { pool: dbPool, migrationsDir: MIGRATIONS_DIR, timeoutMs: 3_000, log: consoleLogger },
  // One query per instance per second at most, however often it is asked.
  1_000,
);

export async function GET(): Promise<Response> {
  const report = await check();
  return Response.json(report.body, { status: report.healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
