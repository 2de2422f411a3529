import type { NextRequest } from "next/server";
import { retryParkedJob } from "@/lib/admin/order-actions";
import { adminOrderAction, jobParams } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";

// The order page's "Retry" of a parked job (lib/admin/order-actions.ts).
export const dynamic = "force-dynamic";
// The job runs before the answer: 30 s at most (lib/jobs/runner.ts).
export const maxDuration = 60;

export function POST(
  request: NextRequest,
  { params }: { params: Promise<{ externalTransactionId: string; jobId: string }> },
) {
  return adminOrderAction(request, params, jobParams, {
    action: (input, _fields, actor) => retryParkedJob(input, actor, { db: db() }),
  });
}
