import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { PROMO_PAGE, updatePromoCode } from "@/lib/promotions/promo-codes-admin";
import { isJson } from "@/lib/http/admin-requests";
import { db } from "@/lib/db/client";

// A promo code's row on /admin/promo-codes, or JSON: every field again (an edit replaces them all), active on/off.
export const dynamic = "force-dynamic";

export async function POST(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return adminAction(request, {
    changesShopPages: false,
    page: PROMO_PAGE,
    flash: { done: "done", error: "error", field: "field", hash: "#promo-codes" },
    refusedFlash: { edit: id },
    body: formBody(),
    action: ({ fields }, { actor }) => updatePromoCode(id, fields, { db: db(), actor, form: !isJson(request) }),
    json: (result) => ({ status: 200, body: { done: result.done, promoCode: result.promoCode } }),
  });
}
