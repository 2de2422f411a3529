import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { CART_COOKIE, readCartId } from "@/lib/cart/shopper-cookies";
import { promoCodeInputSchema } from "@/lib/checkout/checkout-rules";
import { customerSchema } from "@/lib/orders/customer-rules";
import { describeIssues } from "@/lib/text-input";
import { refuseOverClientLimit } from "@/lib/http/client-limits";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { readJsonBody } from "@/lib/http/form-requests";
import { jsonError } from "@/lib/http/json-error";
import { consoleLogger, errorKind } from "@/lib/log";
import { previewPromo } from "@/lib/promotions/promo-codes";

// POST /api/cart/promo: what a promo code would take off this browser's cart, before paying
// (lib/promotions/promo-codes.ts previewPromo). Nothing is reserved or counted: the checkout decides again when
// it creates the order. `{ code, phone? }` → 200 `{ code, subtotalAoa, discountAoa,
// eligibleSubtotalAoa }`, or 422 with why the code does not apply (`promo_unknown`,
// `promo_expired`…), 400 for a bad body, 429 over RATE_LIMIT_PROMO_CHECK_PER_MINUTE.
export const dynamic = "force-dynamic";

const MAX_PROMO_BYTES = 1024;

const promoCheckSchema = z.object({
  code: promoCodeInputSchema,
  phone: customerSchema.shape.phone.optional(),
});

export async function POST(request: NextRequest): Promise<Response> {
  const headers = { "Cache-Control": "private, no-store" };
  const limited = await refuseOverClientLimit(request, {
    name: "promo-check",
    pointsPerMinute: getEnv().rateLimits.promoCheckPerMinute,
    message: "too many promo code checks from this address; please wait a minute and try again",
  });
  if (limited) return limited;
  const body = await readJsonBody(request, MAX_PROMO_BYTES, "the code");
  if (!body.ok) return body.response;
  const parsed = promoCheckSchema.safeParse(body.input);
  if (!parsed.success) return jsonError(400, "invalid_request", describeIssues(parsed.error));
  try {
    const result = await previewPromo(db(), {
      cartId: readCartId(request.cookies.get(CART_COOKIE)?.value),
      code: parsed.data.code,
      phone: parsed.data.phone ?? null,
    });
    if (!result.ok) return jsonError(422, result.code, result.message, headers);
    const { ok: _ok, ...preview } = result;
    return NextResponse.json(preview, { headers });
  } catch (error) {
    consoleLogger("error", "promo.check_failed", { error: errorKind(error) });
    return jsonError(503, "unavailable", "promo codes cannot be checked right now; please try again", headers);
  }
}
