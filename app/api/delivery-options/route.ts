import { db } from "@/lib/db/client";
import { deliveryOptions } from "@/lib/delivery/zones";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";

// GET /api/delivery-options: the active delivery zones and pickup points, by position then name
// (lib/delivery/zones.ts), with the municipalities each zone serves: what the checkout offers.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    return Response.json(await deliveryOptions(db()));
  } catch (error) {
    consoleLogger("error", "delivery.options_failed", { error: errorKind(error) });
    return jsonError(
      503,
      "delivery_unavailable",
      "The delivery options are temporarily unavailable. Please try again.",
    );
  }
}
