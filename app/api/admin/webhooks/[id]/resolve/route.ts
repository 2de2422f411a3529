import type { NextRequest } from "next/server";
import { resolveWebhookEvent } from "@/lib/orders/attention-admin";
import { adminWebhookEventAction, markResolved } from "@/lib/http/order-actions";
import { db } from "@/lib/db/client";

// A webhook delivery's "Mark resolved", with a note (lib/orders/attention-admin.ts).
export const dynamic = "force-dynamic";

export function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  return adminWebhookEventAction(
    request,
    params,
    markResolved(({ id }, note, actor) => resolveWebhookEvent(db(), id, note, actor)),
  );
}
