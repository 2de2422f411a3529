import { catalogChanged } from "@/lib/catalog/cached-pages";
import { authorizeCron } from "@/lib/http/cron-guard";
import { jsonError } from "@/lib/http/json-error";
import { runDueJobs } from "@/lib/jobs/runner";
import { consoleLogger, errorKind } from "@/lib/log";

// Runs due jobs for serverless hosts (vercel.json schedules it); `npm run worker` elsewhere.
// See docs/jobs.md.
export const dynamic = "force-dynamic";
// Jobs are claimed for CLAIM_FOR_MS; one claimed at the last moment may run up to its 30 s timeout.
export const maxDuration = 60;

const CLAIM_FOR_MS = 20_000;

async function runJobs(request: Request): Promise<Response> {
  const refused = authorizeCron(request);
  if (refused) return refused;
  try {
    const summary = await runDueJobs({ deadline: Date.now() + CLAIM_FOR_MS, limit: 1_000 });
    consoleLogger("info", "cron.jobs", { ...summary });
    // A cancelled order's units went back on the shelf.
    if (summary.movedStock) catalogChanged();
    return Response.json(summary);
  } catch (error) {
    consoleLogger("error", "cron.jobs_failed", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the jobs could not run; they will run on the next schedule");
  }
}

export const GET = runJobs;
export const POST = runJobs;
