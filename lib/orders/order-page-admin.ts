import "server-only";
import type { Database } from "../db/client";
import { mayCallRoute, type Role } from "../admin/roles";
import { orderRefunds, type OrderRefunds } from "./refund-views-admin";
import { adminOrderDetail, type AdminOrderDetail } from "./timeline-admin";

/**
 * What the back office's order page shows to the person who opens it: the order and its history
 * (./timeline-admin.ts) for everyone who may open the page, and its refunds (what was paid, given
 * back and what remains, with the forms that record them) only for a role that may record one
 * (lib/admin/roles.ts): for anyone else they are not even read.
 */

/** The route the refunds' form posts to, as lib/admin/roles.ts names it. */
const REFUNDS_ROUTE = "/api/admin/orders/[externalTransactionId]/refunds";

export interface AdminOrderPage extends AdminOrderDetail {
  /** null: the role may not record refunds. */
  refunds: OrderRefunds | null;
}

/** The page of the order `externalTransactionId` as `role` sees it, or null when no order has that id. */
export async function adminOrderPage(
  db: Database,
  externalTransactionId: string,
  role: Role,
): Promise<AdminOrderPage | null> {
  const mayRefund = mayCallRoute(role, REFUNDS_ROUTE, "POST");
  const [detail, refunds] = await Promise.all([
    adminOrderDetail(db, externalTransactionId),
    mayRefund ? orderRefunds(db, externalTransactionId) : null,
  ]);
  return detail && { ...detail, refunds };
}
