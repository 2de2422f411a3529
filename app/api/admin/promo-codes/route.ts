import type { NextRequest } from "next/server";
import { adminAction, formBody } from "@/lib/http/admin-action";
import { createPromoCode, PROMO_PAGE } from "@/lib/promotions/promo-codes-admin";
import { isJson } from "@/lib/http/admin-requests";
import { db } from "@/lib/db/client";

// The "new promo code" form of /admin/promo-codes, or JSON: 201 with the code (its id included).
export const dynamic = "force-dynamic";

export function POST(request: NextRequest) {
  return adminAction(request, {
    changesShopPages: false,
    page: PROMO_PAGE,
    flash: { done: "done", error: "error", field: "field", hash: "#promo-codes" },
    body: formBody(),
    action: ({ fields }, { actor }) => createPromoCode(fields, { db: db(), actor, form: !isJson(request) }),
    json: (result) => ({ status: 201, body: { done: result.done, promoCode: result.promoCode } }),
  });
}
