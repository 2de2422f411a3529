import type { NextRequest } from "next/server";
import { resolveWebhookDelivery } from "@/lib/orders/attention-admin";
import { adminDeliveryAction, markResolved } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";

// A webhook delivery's "Mark resolved", with a note (lib/orders/attention-admin.ts).
export const dynamic = "force-dynamic";

export function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  return adminDeliveryAction(
    request,
    params,
    markResolved(({ id }, note) => resolveWebhookDelivery(db(), id, note)),
  );
}
