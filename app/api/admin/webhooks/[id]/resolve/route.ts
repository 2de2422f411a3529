import type { NextRequest } from "next/server";
import { resolveWebhookDelivery } from "@/lib/orders/attention-admin";
import { adminAction, deliveryParams, markResolved } from "@/lib/http/order-actions";
import { deliveryPagePath } from "@/lib/orders/order-flash";
import { db } from "@/lib/db/client";

// A webhook delivery's "Mark resolved", with a note (lib/orders/attention-admin.ts).
export const dynamic = "force-dynamic";

export function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  return adminAction(
    request,
    params,
    deliveryParams,
    ({ id }) => deliveryPagePath(id),
    ({ id }) => markResolved(request, (note) => resolveWebhookDelivery(db(), id, note)),
  );
}
