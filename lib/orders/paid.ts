import { Prisma } from "../generated/prisma/client";

/**
 * What "paid" means, once, for every figure of the back office: the dashboard, the home's totals,
 * the orders list's paid filter, the CSV export of paid orders, and so the invoices (one per such
 * order, of its amount). An order is paid when it is CON; it counts on the instant the shop learnt
 * so, `finalized_at` (the state machine's transition), placed on the Luanda calendar by the caller.
 *
 * An order paid after it was cancelled (CAN with `paid_after_cancel_at`) is not revenue: it stays
 * cancelled, its units were given back, no invoice is issued, and a person decides whether to
 * refund or fulfil it. The dashboard counts those waiting for that decision on their own. One the
 * owner fulfils is CON, paid as of its payment (lib/orders/fulfil-after-cancel-admin.ts).
 */

/** The column of the instant an order was paid. */
export const PAID_AT_COLUMN = "finalized_at";

/** `status = 'CON'` of the orders row `alias`. */
export const isPaid = (alias = "o"): Prisma.Sql => Prisma.sql`${Prisma.raw(alias)}.status = 'CON'`;

/** When the orders row `alias` was paid (meaningful where {@link isPaid} holds). */
export const paidAt = (alias = "o"): Prisma.Sql => Prisma.raw(`${alias}.${PAID_AT_COLUMN}`);

/** The orders row `alias` was paid in [start, end). */
export const paidBetween = (start: Date, end: Date, alias = "o"): Prisma.Sql =>
  Prisma.sql`${isPaid(alias)} AND ${paidAt(alias)} >= ${start} AND ${paidAt(alias)} < ${end}`;
