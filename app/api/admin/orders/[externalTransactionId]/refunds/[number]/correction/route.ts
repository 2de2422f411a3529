import { after, type NextRequest } from "next/server";
import { recordOrderRefundCorrection } from "@/lib/http/refund-actions";
import { db } from "@/lib/db/client";
import { runDueJobs } from "@/lib/jobs/runner";

// A correcting entry of one of the order's refunds (lib/orders/refund-corrections-admin.ts): JSON
// or the order page's form; the shopper's mail about it runs after the answer.
export const dynamic = "force-dynamic";
// The correction is one transaction; the mail job (30 s at most) runs in after(), inside this duration.
export const maxDuration = 60;

export function POST(
  request: NextRequest,
  { params }: { params: Promise<{ externalTransactionId: string; number: string }> },
) {
  return recordOrderRefundCorrection(request, params, {
    db: db(),
    runJobs: (ids) => after(() => runDueJobs({ ids })),
  });
}
