import { after, type NextRequest } from "next/server";
import { adminOrderAction, fulfilAfterCancelButton, orderParams } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";
import { runDueJobs } from "@/lib/jobs/runner";

// "Cumprir" an order paid after it was cancelled (lib/orders/fulfil-after-cancel-admin.ts); its payment's jobs run after the answer.
export const dynamic = "force-dynamic";
// The change is one transaction; the jobs (30 s at most each) run in after(), inside this duration.
export const maxDuration = 60;

export function POST(request: NextRequest, { params }: { params: Promise<{ externalTransactionId: string }> }) {
  return adminOrderAction(
    request,
    params,
    orderParams,
    fulfilAfterCancelButton({ db: db(), runJobs: (ids) => after(() => runDueJobs({ ids })) }),
  );
}
