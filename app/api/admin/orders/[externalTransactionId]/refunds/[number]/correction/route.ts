import type { NextRequest } from "next/server";
import { recordOrderRefundCorrection } from "@/lib/http/refund-actions";
import { db } from "@/lib/db/client";

// A correcting entry of one of the order's refunds (lib/orders/refund-corrections-admin.ts): JSON or the order page's form.
export const dynamic = "force-dynamic";

export function POST(
  request: NextRequest,
  { params }: { params: Promise<{ externalTransactionId: string; number: string }> },
) {
  return recordOrderRefundCorrection(request, params, { db: db() });
}
