import type { NextRequest } from "next/server";
import { resolveOrderAttention } from "@/lib/orders/attention-admin";
import { adminOrderAction, markResolved, orderParams } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";

// The order page's "Mark resolved" of the order's attention item, with a note (lib/orders/attention-admin.ts).
export const dynamic = "force-dynamic";

export function POST(request: NextRequest, { params }: { params: Promise<{ externalTransactionId: string }> }) {
  return adminOrderAction(
    request,
    params,
    orderParams,
    markResolved(({ externalTransactionId }, note, actor) =>
      resolveOrderAttention(db(), externalTransactionId, note, actor),
    ),
  );
}
