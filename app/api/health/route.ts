import { hasBearerSecret } from "@/lib/http/cron-guard";
import { dbPool } from "@/lib/db/client";
import { EnvError, getDatabaseEnv, getEnv } from "@/lib/env";
import { healthStatus, MIGRATIONS_DIR, openHealthConnection, sharedHealthCheck } from "@/lib/db/health";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger } from "@/lib/log";

// For load balancers, uptime monitors and container health checks (docs/deploy.md): anyone gets
// { status: "ok" } or { status: "busy" } with 200 (keep this instance), or { status: "unavailable" }
// with 503 (take it out). With `Authorization: Bearer <CRON_SECRET>` the body also says why
// (lib/db/health.ts): the database's state and error code, the pending migrations, the pool's queue.
export const dynamic = "force-dynamic";
export const maxDuration = 10;

const check = sharedHealthCheck(
  {
    // Its own short-lived connection, never one of the app's pool (lib/db/health.ts).
    connect: (timeoutMs) => openHealthConnection(getDatabaseEnv().databaseUrl, timeoutMs),
    appPool: dbPool,
    migrationsDir: MIGRATIONS_DIR,
    timeoutMs: 3_000,
    log: consoleLogger,
  },
  // One check per instance per second at most, however often it is asked.
  1_000,
);

export async function GET(request: Request): Promise<Response> {
  const wantsDetails = request.headers.has("authorization");
  if (wantsDetails) {
    const secret = operatorSecret();
    if (!secret || !hasBearerSecret(request, secret))
      return jsonError(
        401,
        "unauthorized",
        "the details need Authorization: Bearer <CRON_SECRET>; without it, the status alone",
        {
          "WWW-Authenticate": 'Bearer realm="health"',
          "Cache-Control": "no-store",
        },
      );
  }
  const report = await check();
  const status = healthStatus(report);
  return Response.json(wantsDetails ? { status, ...report.body } : { status }, {
    status: report.healthy ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}

/** CRON_SECRET; none while the configuration is incomplete, which the status itself does not need. */
function operatorSecret(): string | undefined {
  try {
    return getEnv().cronSecret;
  } catch (error) {
    if (error instanceof EnvError) return undefined;
    throw error;
  }
}
