import "server-only";
import { z } from "zod";
import { customerSchema } from "./customer-rules";
import type { Database } from "../db/client";
import { getEnv } from "../env";
import { Prisma } from "../generated/prisma/client";
import { phoneKey } from "../phone";
import { appRateLimits, type FailureLimit, type RateLimits } from "../db/rate-limit";
import { invalidInput } from "../text-input";
import type { OrderStatus } from "./state-machine";

/**
 * Finding an order again: on `/orders/lookup` by the order's number ("Encomenda 7CDAC2DD", the
 * first eight hex digits of its id; the whole id is accepted too) and the phone given at checkout,
 * in any form checkout accepts (lib/phone.ts); on `/orders` ("As minhas encomendas"), the orders
 * this browser placed, by its shopper cookie.
 */

/** What /orders shows of one order. */
export interface ShopperOrder {
  externalTransactionId: string;
  status: OrderStatus;
  amountAoa: number;
  createdAt: Date;
  /** Units across its lines. */
  items: number;
}

/** The newest orders /orders lists; older ones are found by their number. */
export const SHOPPER_ORDERS_SHOWN = 50;

const SHORT_ID = /^[0-9a-f]{8}$/;
const FULL_ID = /^order_([0-9a-f]{8})-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** "7CDAC2DD", "#7cdac2dd", " 7cdac2dd " or a whole `order_…` id → its first eight hex digits. */
function shortIdOf(text: string): string | null {
  const value = text.trim().replace(/^#/, "").toLowerCase();
  if (SHORT_ID.test(value)) return value;
  return FULL_ID.exec(value)?.[1] ?? null;
}

export const lookupSchema = z.object({
  orderNumber: z
    .string({ error: "is required" })
    .max(60, { error: "is longer than an order number" })
    .transform((value, context) => {
      const shortId = shortIdOf(value);
      if (!shortId) context.addIssue({ code: "custom", message: "must be the order's number, such as 7CDAC2DD" });
      return shortId ?? "";
    }),
  phone: customerSchema.shape.phone,
});

export type LookupResult =
  | { ok: true; externalTransactionId: string }
  | ReturnType<typeof invalidInput<"orderNumber" | "phone">>
  | { ok: false; code: "not_found"; message: string };

const NOT_FOUND: LookupResult = {
  ok: false,
  code: "not_found",
  message: "no order has this number and phone",
};

/**
 * The order with this number whose checkout gave this phone; `not_found` alike for an unknown
 * number and a wrong phone, so the form tells nobody which numbers exist (the route also limits
 * lookups per client address, RATE_LIMIT_ORDER_LOOKUP_PER_MINUTE). One indexed query either way
 * (orders_short_id_idx). Two orders may share a short number (32 bits): the phone tells them
 * apart, newest first.
 */
export async function lookUpOrder(db: Pick<Database, "$queryRaw">, input: unknown): Promise<LookupResult> {
  const parsed = lookupSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, ["orderNumber", "phone"]);
  const { orderNumber, phone } = parsed.data;
  const candidates = await db.$queryRaw<{ externalTransactionId: string; customerPhone: string | null }[]>(Prisma.sql`
SELECT external_transaction_id AS "externalTransactionId", customer_phone AS "customerPhone"
FROM orders WHERE substr(external_transaction_id, 7, 8) = ${orderNumber}
ORDER BY created_at DESC LIMIT 20`);
  const wanted = phoneKey(phone);
  const match = candidates.find((order) => order.customerPhone !== null && phoneKey(order.customerPhone) === wanted);
  return match ? { ok: true, externalTransactionId: match.externalTransactionId } : NOT_FOUND;
}

/** Where the guesses at one order number are counted (rate_limits, `order-lookup-wrong-phone:<number>`). */
const WRONG_PHONE_LIMIT = "order-lookup-wrong-phone";

/**
 * {@link lookUpOrder} behind a lock-out per order number: after ORDER_LOOKUP_WRONG_PHONES answers
 * of `not_found` for one number within ORDER_LOOKUP_LOCKOUT_MINUTES, from any addresses, that
 * number is answered `not_found` whatever the phone, until the window ends. A client walking the
 * addresses of a whole IPv6 network, each with its own per-address allowance, gets a few guesses
 * at an order's phone per window, not thousands.
 *
 * A guess is spent before its phone is compared, in the same atomic step that checks the lock
 * (`spendAttempt`), and only a guess the lock allows is compared: a burst of concurrent guesses,
 * however many and from however many instances, gets at most ORDER_LOOKUP_WRONG_PHONES compared
 * per window. A right phone gives its guess back (the shopper who finds their own order has not
 * guessed wrong); it gives back only its own, so it cannot undo the wrong ones or lift a lock, and
 * a locked number finds nothing, the right phone included.
 *
 * The lock-out is not observable: a locked number gets the very answer an unknown number and a
 * wrong phone get, and an unknown number's guesses are spent and locked like any other's, so
 * whether a number is locked (it may answer a little sooner: nothing is looked up) tells only
 * that it was guessed at, never whether an order has it. Throws when the counters cannot be
 * reached (the route answers "unavailable"): a guess is never let through uncounted.
 */
export async function lookUpOrderWithLockOut(
  db: Pick<Database, "$queryRaw">,
  input: unknown,
  lockOut: { limit?: FailureLimit; limits?: Pick<RateLimits, "spendAttempt"> } = {},
): Promise<LookupResult> {
  const limit = lockOut.limit ?? wrongPhoneLimit();
  const parsed = lookupSchema.safeParse(input);
  // Refused input is refused before anything is spent or compared.
  if (!parsed.success || !(limit.failures > 0)) return lookUpOrder(db, input);
  const attempt = await (lockOut.limits ?? appRateLimits()).spendAttempt(
    WRONG_PHONE_LIMIT,
    parsed.data.orderNumber,
    limit,
  );
  if (!attempt.allowed) return NOT_FOUND;
  const result = await lookUpOrder(db, parsed.data);
  if (result.ok) await attempt.giveBack();
  return result;
}

function wrongPhoneLimit(): FailureLimit {
  const { orderLookupWrongPhones, orderLookupLockOutMinutes } = getEnv().rateLimits;
  return { failures: orderLookupWrongPhones, windowSeconds: orderLookupLockOutMinutes * 60 };
}

/** The orders a shopper (its `shopper_id` cookie) placed, newest first, at most SHOPPER_ORDERS_SHOWN. */
export async function shopperOrders(
  db: Pick<Database, "order">,
  clientId: string | undefined,
): Promise<ShopperOrder[]> {
  if (!clientId) return [];
  const orders = await db.order.findMany({
    where: { clientId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: SHOPPER_ORDERS_SHOWN,
    select: {
      externalTransactionId: true,
      status: true,
      amountAoa: true,
      createdAt: true,
      lines: { select: { quantity: true } },
    },
  });
  return orders.map(({ lines, ...order }) => ({
    ...order,
    items: lines.reduce((sum, line) => sum + line.quantity, 0),
  }));
}
