import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { db } from "@/lib/db/client";
import { createPickupPoint, DELIVERY_PAGE } from "@/lib/delivery/zones-admin";

// The "new pickup point" form of /admin/delivery, or JSON: 201 with the point (its id included).
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return adminAction(request, {
    changesShopPages: false,
    page: DELIVERY_PAGE,
    flash: { done: "done", error: "error", field: "field", hash: "#pickup-points" },
    body: formBody(),
    action: ({ fields }, { actor }) => createPickupPoint(fields, { db: db(), actor }),
    json: (result) => ({ status: 201, body: { done: result.done, pickupPoint: result.pickupPoint } }),
  });
}
