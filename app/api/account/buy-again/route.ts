import type { NextRequest } from "next/server";
import { ORDERS_FLASH } from "@/lib/accounts/account-flash";
import { boughtAgainParams } from "@/lib/accounts/bought-again-notice";
import { buyAgain, type BoughtAgain, type NotBoughtAgain } from "@/lib/accounts/buy-again";
import { cartCookie } from "@/lib/cart/cart";
import { CART_COOKIE } from "@/lib/cart/shopper-cookies";
import { catalogChanged } from "@/lib/catalog/cached-pages";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { withFlash } from "@/lib/flash";
import { ACCOUNT_PAGE, accountAction, MAX_ACCOUNT_FORM_BYTES } from "@/lib/http/account-requests";
import { runDueJobs } from "@/lib/jobs/runner";
import { consoleLogger } from "@/lib/log";
import { releaseExpiredHolds } from "@/lib/orders/holds";
import { payClient } from "@/lib/orders/pay-client";
import { refusal } from "@/lib/refusal";

// POST /api/account/buy-again { externalTransactionId }: "Comprar de novo", the lines of one of
// the signed-in shopper's orders back in this browser's cart (lib/accounts/buy-again.ts), at
// today's prices and stock, through the cart's own add. The button on /account posts here and
// goes to the cart, which says what did not go back in (lib/accounts/bought-again-notice.ts); a
// JSON client gets what was added and what was not. The cart's cookie names the cart it went in.
// An order of another phone is as unknown as one that does not exist (404).

// An add may end expired stock holds, asking the service once (as the cart's own add does).
export const maxDuration = 30;

export const dynamic = "force-dynamic";

interface Bought {
  externalTransactionId: string;
  added: BoughtAgain[];
  unavailable: NotBoughtAgain[];
}

export async function POST(request: NextRequest): Promise<Response> {
  return accountAction<Bought>(request, {
    page: ACCOUNT_PAGE,
    flash: ORDERS_FLASH,
    maxBytes: MAX_ACCOUNT_FORM_BYTES,
    donePage: ({ externalTransactionId, added, unavailable }) =>
      withFlash("/cart", boughtAgainParams(externalTransactionId, { added, unavailable })),
    action: async (shopper, input) => {
      const { externalTransactionId } = input;
      if (typeof externalTransactionId !== "string")
        return refusal(400, "invalid_input", "externalTransactionId must be the order's id", "externalTransactionId");
      const result = await buyAgain(
        db(),
        { cartId: request.cookies.get(CART_COOKIE)?.value, externalTransactionId, phoneKey: shopper.phoneKey },
        { releaseExpiredHolds: releaseHolds },
      );
      if (!result.ok) return result;
      return {
        ok: true,
        value: { externalTransactionId, added: result.added, unavailable: result.unavailable },
        cookies: result.cartId ? [cartCookie(result.cartId, getEnv().appUrl)] : [],
      };
    },
    json: ({ added, unavailable }) => ({ added, unavailable }),
  });
}

/** As the cart's add does (app/actions/cart.ts): units of orders nobody paid in time go back on sale first. */
async function releaseHolds(variantIds: string[]): Promise<number> {
  const released = await releaseExpiredHolds(variantIds, {
    db: db(),
    pay: payClient(),
    log: consoleLogger,
    runJobsNow: (ids) => runDueJobs({ ids }),
  });
  if (released > 0) catalogChanged();
  return released;
}
