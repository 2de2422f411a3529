import { after, type NextRequest } from "next/server";
import { adminOrderAction, fulfilmentStep, orderParams } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";
import { runDueJobs } from "@/lib/jobs/runner";

// The order page's fulfilment steps, `{ state, note? }` (lib/orders/fulfilment.ts); the shopper's mail runs after the answer.
export const dynamic = "force-dynamic";
// The step is one statement; the mail job (30 s at most) runs in after(), inside this duration.
export const maxDuration = 60;

export function POST(request: NextRequest, { params }: { params: Promise<{ externalTransactionId: string }> }) {
  return adminOrderAction(
    request,
    params,
    orderParams,
    fulfilmentStep({ db: db(), runJobs: (ids) => after(() => runDueJobs({ ids })) }),
  );
}
