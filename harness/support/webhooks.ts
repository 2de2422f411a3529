import { createHmac } from "node:crypto";
import { db } from "@/lib/db/client";

/** Builds webhook deliveries the way the service sends them (contract 5.2, 6.1). */

export const webhookSecret = () => process.env.PAY_WEBHOOK_SECRET!;

export function sign(body: string | Uint8Array, encoding: "hex" | "base64" = "hex", secret = webhookSecret()) {
  return createHmac("sha256", secret).update(body).digest(encoding);
}

/** A notification body: the order's id and status in `data`, as the local sandbox sends it. */
export function notification(externalTransactionId: string, paymentStatus: string, data: Record<string, unknown> = {}) {
  return JSON.stringify({
    event: "payment.status_changed",
    data: { externalTransactionId, paymentStatus, ...data },
  });
}

type Signature = "hex" | "base64" | { header: string | null };

export function webhookRequest(body: string | Uint8Array, signature: Signature = "hex", headers: HeadersInit = {}) {
  const header = typeof signature === "string" ? sign(body, signature) : signature.header;
  const all = new Headers(headers);
  all.set("Content-Type", "application/json");
  if (header !== null) all.set("x-pay-content-token", header);
  return new Request("http://localhost:3000/api/pay/webhook", {
    method: "POST",
    headers: all,
    body: typeof body === "string" ? body : Buffer.from(body),
  });
}

export async function postWebhook(body: string | Uint8Array, signature?: Signature, headers?: HeadersInit) {
  const { POST } = await import("@/app/api/pay/webhook/route");
  const response = await POST(webhookRequest(body, signature, headers));
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

export const eventsOf = (externalTransactionId: string) =>
  db().webhookEvent.findMany({ where: { externalTransactionId }, orderBy: { receivedAt: "asc" } });
