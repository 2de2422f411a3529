import { Prisma } from "../generated/prisma/client";
import { phoneDigitForms } from "../phone";

/**
 * The orders one phone placed, as a condition on `orders`: the back office's search by phone
 * (lib/orders/orders-admin.ts) and a signed-in shopper's orders (lib/accounts/phone-orders.ts).
 * The phone is stored as typed; without its spaces, dashes, dots and parentheses it is compared
 * with every form of the phone's key (lib/phone.ts phoneDigitForms, so SQL holds no copy of
 * phoneKey). The expression is the very one of the index orders_customer_phone_digits_idx
 * (migration 20261222000300), written out rather than sent as parameters so that every plan, a
 * generic one too, can read that index: change both together.
 */
export const customerPhoneIs = (key: string): Prisma.Sql =>
  Prisma.sql`regexp_replace(customer_phone, '[^0-9+]', '', 'g') = ANY(${phoneDigitForms(key)}::text[])`;
