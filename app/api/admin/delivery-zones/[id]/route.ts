import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { db } from "@/lib/db/client";
import { DELIVERY_PAGE, updateDeliveryZone } from "@/lib/delivery/zones-admin";

// A delivery zone's row on /admin/delivery, or JSON: name, fee, threshold, days, position, active on/off.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return adminAction(request, {
    changesShopPages: false,
    page: DELIVERY_PAGE,
    flash: { done: "done", error: "error", field: "field", hash: "#zones" },
    body: formBody(),
    action: ({ fields }, { actor }) => updateDeliveryZone(id, fields, { db: db(), actor }),
    json: (result) => ({ status: 200, body: { done: result.done, zone: result.zone } }),
  });
}
