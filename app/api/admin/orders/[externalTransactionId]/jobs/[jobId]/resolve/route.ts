import type { NextRequest } from "next/server";
import { resolveParkedJob } from "@/lib/orders/attention-admin";
import { adminOrderAction, jobParams, markResolved } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";

// The order page's "Mark resolved" of a parked job, with a note (lib/orders/attention-admin.ts).
export const dynamic = "force-dynamic";

export function POST(
  request: NextRequest,
  { params }: { params: Promise<{ externalTransactionId: string; jobId: string }> },
) {
  return adminOrderAction(
    request,
    params,
    jobParams,
    markResolved(({ externalTransactionId, jobId }, note, actor) =>
      resolveParkedJob(db(), { id: jobId, externalTransactionId }, note, actor),
    ),
  );
}
