import { after, NextResponse, type NextRequest } from "next/server";
import {
  CART_COOKIE,
  newShopperId,
  readCartId,
  readShopperId,
  SHOPPER_COOKIE,
  shopperCookie,
} from "@/lib/cart/shopper-cookies";
import { keepCheckoutAddress, type CheckoutAddressOutcome } from "@/lib/accounts/checkout-address";
import { signedInShopper, type SignedInShopper } from "@/lib/accounts/current-shopper";
import { catalogChanged } from "@/lib/catalog/cached-pages";
import { drainJobsInBackground } from "@/lib/jobs/runner";
import { createOrder } from "@/lib/checkout/create-order";
import { createOrderRequestSchema, MAX_CREATE_ORDER_BYTES } from "@/lib/checkout/checkout-rules";
import { describeIssues } from "@/lib/text-input";
import { clientAddress, rateLimitKeyOf, UNKNOWN_CLIENT_ADDRESS } from "@/lib/http/client-address";
import { refuseOverClientLimit } from "@/lib/http/client-limits";
import { db, dbPool } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { readJsonBody } from "@/lib/http/form-requests";
import { jsonError } from "@/lib/http/json-error";
import { endOfInvocation, runDueJobs } from "@/lib/jobs/runner";
import { consoleLogger, errorKind } from "@/lib/log";
import { payClient } from "@/lib/orders/pay-client";
import { phoneKey } from "@/lib/phone";

// Endpoint A (contract 4.2): called by the PayButton's createOrder() before the popup opens.
// A signed-in shopper's order carries the account's verified phone (its key), never another: a
// posted phone of another key is refused (the page was opened for another account), and the
// delivery address is kept on the account when `saveAddress` asks, once the order exists.
export const dynamic = "force-dynamic";
// The service call (retried within lib/pay's policy) and, after a failure, a drain of the jobs it left.
// Cut off at worst mid-call, the order is still PEN: its hold expires and the sweep asks the service.
export const maxDuration = 60;

export async function POST(request: NextRequest): Promise<Response> {
  const startedAt = Date.now();
  const limited = await refuseOverClientLimit(request, {
    name: "create-order",
    pointsPerMinute: getEnv().rateLimits.createOrderPerMinute,
    message: "too many orders from this address; please wait a moment and try again",
  });
  if (limited) return limited;
  const body = await readJsonBody(request, MAX_CREATE_ORDER_BYTES, "the order");
  if (!body.ok) return body.response;
  const parsed = createOrderRequestSchema.safeParse(body.input);
  if (!parsed.success) return jsonError(400, "invalid_request", describeIssues(parsed.error));

  let account: SignedInShopper | null;
  try {
    account = await signedInShopper(request.headers);
  } catch (error) {
    consoleLogger("error", "order.session_unreadable", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the order could not be created; nothing was charged, please try again");
  }
  const { items, delivery, promoCode, saveAddress } = parsed.data;
  let { customer } = parsed.data;
  if (account && customer) {
    if (phoneKey(customer.phone) !== account.phoneKey)
      return jsonError(
        409,
        "phone_not_account",
        "customer.phone is not the phone this browser is signed in with; reload the checkout",
      );
    customer = { ...customer, phone: account.phoneKey };
  }

  const { appUrl, clientAddress: addressSettings } = getEnv();
  const address = clientAddress(request.headers, addressSettings);
  const knownShopper = readShopperId(request.cookies.get(SHOPPER_COOKIE)?.value);
  const clientId = knownShopper ?? newShopperId();
  let result;
  try {
    result = await createOrder(
      {
        source: items
          ? { kind: "items", items }
          : { kind: "cart", cartId: readCartId(request.cookies.get(CART_COOKIE)?.value) },
        customer,
        delivery,
        promoCode,
        clientId,
        clientAddress: address === UNKNOWN_CLIENT_ADDRESS ? null : rateLimitKeyOf(address),
      },
      {
        db: db(),
        pool: dbPool(),
        pay: payClient(),
        appUrl,
        // A failed creation's clean-up puts its units back: the cached catalogue follows.
        runJobsNow: async (ids) => {
          if ((await runDueJobs({ ids })).movedStock) catalogChanged();
        },
        log: consoleLogger,
      },
    );
  } catch (error) {
    consoleLogger("error", "order.create_failed", { error: errorKind(error) });
    return jsonError(503, "unavailable", "the order could not be created; nothing was charged, please try again");
  }
  // A new order reserved units: the cached catalogue follows. A refusal, or the answer repeated
  // for a cart already checked out, moved nothing, and must not let anyone keep the cached pages
  // rendering again; a failed creation's clean-up (runJobsNow above) marks them itself.
  if (result.ok && !result.replayed) catalogChanged();
  if (!result.ok) {
    // A failed creation enqueued its clean-up jobs and ran them; pick up anything left over.
    if (result.status >= 500) after(() => drainJobsInBackground({ finishBy: endOfInvocation(startedAt, maxDuration) }));
    const retryAfter = result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined;
    return jsonError(result.status, result.code, result.message, retryAfter);
  }

  const addressSaved =
    account && saveAddress && delivery?.method === "delivery"
      ? await keepAddress(account, delivery.address)
      : undefined;
  const response = NextResponse.json({
    externalTransactionId: result.externalTransactionId,
    referenceNumber: result.referenceNumber,
    amountAoa: result.amountAoa,
    subtotalAoa: result.subtotalAoa,
    discountAoa: result.discountAoa,
    deliveryFeeAoa: result.deliveryFeeAoa,
    promoCode: result.promoCode,
    paymentReferences: result.paymentReferences,
    ...(addressSaved ? { addressSaved } : {}),
  });
  if (!knownShopper) response.cookies.set(shopperCookie(clientId, appUrl));
  return response;
}

/**
 * "Guardar este endereço", after the order exists: whatever happens here, the order stands and is
 * answered; what became of the address is said in the answer (`addressSaved`) and, when it was
 * not kept, logged without the address.
 */
async function keepAddress(
  account: SignedInShopper,
  address: Parameters<typeof keepCheckoutAddress>[2],
): Promise<CheckoutAddressOutcome> {
  let outcome: CheckoutAddressOutcome;
  try {
    outcome = await keepCheckoutAddress(db(), account.id, address);
  } catch (error) {
    consoleLogger("warn", "account.checkout_address_failed", { error: errorKind(error) });
    return "not_saved";
  }
  if (outcome === "too_many_addresses" || outcome === "not_saved")
    consoleLogger("info", "account.checkout_address_not_saved", { reason: outcome });
  return outcome;
}
