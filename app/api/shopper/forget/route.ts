import { NextResponse } from "next/server";
import { forgottenShopperCookies } from "@/lib/cart/shopper-cookies";
import { getEnv } from "@/lib/env";
import { isSameOriginRequest } from "@/lib/http/same-origin";
import { jsonError } from "@/lib/http/json-error";

// POST /api/shopper/forget: "Esquecer este telefone" (components/offline/forget-this-phone.tsx).
// Expires this browser's shopper and cart cookies, so that a shared phone no longer lists the
// shopper's orders or holds their cart; the pages the service worker kept are deleted by the
// page itself. Only from the shop's own pages: another site must not be able to empty a cart.
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const { appUrl } = getEnv();
  if (!isSameOriginRequest(request, appUrl))
    return jsonError(403, "cross_site", "this request must come from the shop's own pages");
  const response = NextResponse.json({ forgotten: true }, { headers: { "Cache-Control": "no-store" } });
  for (const cookie of forgottenShopperCookies(appUrl)) response.cookies.set(cookie);
  return response;
}
