import type { NextRequest } from "next/server";
import { adminOrderAction, jobParams, retryParkedJob } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";

// The order page's "Retry" of a parked job (lib/http/order-actions.ts).
export const dynamic = "force-dynamic";
// The job runs before the answer: 30 s at most (lib/jobs/runner.ts).
export const maxDuration = 60;

export function POST(
  request: NextRequest,
  { params }: { params: Promise<{ externalTransactionId: string; jobId: string }> },
) {
  return adminOrderAction(request, params, jobParams, (input) => retryParkedJob(input, { db: db() }));
}
