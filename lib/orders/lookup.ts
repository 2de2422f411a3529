import "server-only";
import type { Database } from "../db/client";
import type { OrderStatus } from "./state-machine";

/**
 * "As minhas encomendas" (`/orders`): the orders this browser placed, by its shopper cookie. An
 * order placed elsewhere is found by signing in with its phone (the account lists every order of
 * that phone, lib/accounts/phone-orders.ts), never by its number and a phone.
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

/** The newest orders /orders lists; the account, signed in by phone, lists them all. */
export const SHOPPER_ORDERS_SHOWN = 50;

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
