import type { NextRequest } from "next/server";
import { recordOrderRefund } from "@/lib/http/refund-actions";
import { db } from "@/lib/db/client";

// A refund of the order, with the units returned if any (lib/orders/refunds-admin.ts): JSON or the order page's form.
export const dynamic = "force-dynamic";

export function POST(request: NextRequest, { params }: { params: Promise<{ externalTransactionId: string }> }) {
  return recordOrderRefund(request, params, { db: db() });
}
