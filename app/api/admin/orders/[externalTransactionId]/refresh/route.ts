import type { NextRequest } from "next/server";
import { askServiceNow } from "@/lib/admin/order-actions";
import { adminOrderAction, orderParams } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";
import { payClient } from "@/lib/orders/pay-client";

// The order page's "Ask the service now" (lib/admin/order-actions.ts).
export const dynamic = "force-dynamic";
// A status query (two 3 s attempts at most), then the jobs a change enqueued (30 s each at most).
export const maxDuration = 60;

export function POST(request: NextRequest, { params }: { params: Promise<{ externalTransactionId: string }> }) {
  return adminOrderAction(request, params, orderParams, {
    action: ({ externalTransactionId }, _fields, actor) =>
      askServiceNow(externalTransactionId, actor, { db: db(), pay: payClient() }),
  });
}
