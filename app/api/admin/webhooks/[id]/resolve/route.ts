import type { NextRequest } from "next/server";
import { resolveWebhookDelivery } from "@/lib/admin/attention";
import { adminAction, deliveryParams, markResolved } from "@/lib/admin/order-actions";
import { deliveryPagePath } from "@/lib/admin/order-flash";
import { db } from "@/lib/db/client";

// A webhook delivery's "Mark resolved", with a note (lib/admin/attention.ts).
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
