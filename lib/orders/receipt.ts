import "server-only";
import type { Database } from "../db/client";
import { ORDER_DELIVERY_SELECT, orderDelivery } from "./delivery-details";
import type { DeliveryMethod } from "./fulfilment-states";
import { EXTERNAL_TRANSACTION_ID, shortOrderId } from "./order-number";

/**
 * A paid order's receipt (/orders/<externalTransactionId>/receipt, docs/checkout.md#receipts):
 * what it prints, read from the order's snapshot and its invoice row. A receipt exists once the
 * order is CON and the `record-invoice` job has written its `invoices` row, whose gapless number
 * it carries; a CON order without one yet is "being prepared". An unpaid or cancelled order has
 * none, a cancelled order that was paid after all included (it is never invoiced: a person
 * refunds it, or fulfils it and issues the document outside the shop).
 *
 * It is not a certified invoice, and says so: the shop is not invoicing software validated by
 * Angola's tax administration.
 */

export interface ReceiptLine {
  productName: string;
  /** The variant's values when it was sold ("M, Azul"); "" for a product without options. */
  variantTitle: string;
  sku: string | null;
  quantity: number;
  unitPriceAoa: number;
  /** unitPriceAoa × quantity, before the order's discount. */
  lineTotalAoa: number;
}

export interface Receipt {
  /** From the gapless invoice counter (lib/jobs/handlers.ts recordInvoice). */
  invoiceNumber: number;
  issuedAt: Date;
  externalTransactionId: string;
  /** "7CDAC2DD", as the shopper's pages name the order. */
  orderNumber: string;
  orderedAt: Date;
  /** When the payment was confirmed (the order's finalized_at). */
  paidAt: Date | null;
  customerName: string | null;
  /** Normalised (lib/nif.ts); null when the shopper gave none. */
  customerNif: string | null;
  lines: ReceiptLine[];
  subtotalAoa: number;
  discountAoa: number;
  promoCode: string | null;
  deliveryFeeAoa: number;
  /** What was paid: the invoice's amount, which is the order's. */
  totalAoa: number;
  /** How the goods reach the shopper and where (the zone's or the pickup point's name); null for older orders. */
  delivery: { method: DeliveryMethod; place: string | null } | null;
}

export type ReceiptState = { state: "issued"; receipt: Receipt } | { state: "preparing" };

/**
 * Whether an order has a receipt, from its status and whether its invoice row is written: the rule
 * above, for pages that list orders without printing any receipt.
 */
export const receiptStateOf = (status: string, invoiced: boolean): ReceiptState["state"] | null =>
  status !== "CON" ? null : invoiced ? "issued" : "preparing";

/** The receipt of a paid order, "preparing" until its invoice is written, or null (no such order, or not paid). */
export async function orderReceipt(db: Database, externalTransactionId: string): Promise<ReceiptState | null> {
  // What is not an order's id names no order: no query.
  if (!EXTERNAL_TRANSACTION_ID.test(externalTransactionId)) return null;
  const order = await db.order.findUnique({
    where: { externalTransactionId },
    select: {
      externalTransactionId: true,
      status: true,
      amountAoa: true,
      createdAt: true,
      finalizedAt: true,
      customerName: true,
      customerNif: true,
      ...ORDER_DELIVERY_SELECT,
      lines: {
        orderBy: [{ productName: "asc" }, { variantTitle: "asc" }, { id: "asc" }],
        select: { productName: true, variantTitle: true, sku: true, quantity: true, unitPriceAoa: true },
      },
      invoice: { select: { number: true, amountAoa: true, issuedAt: true } },
    },
  });
  if (!order) return null;
  const state = receiptStateOf(order.status, order.invoice !== null);
  if (state !== "issued" || !order.invoice) return state === "preparing" ? { state } : null;
  const lines = order.lines.map((line) => ({ ...line, lineTotalAoa: line.unitPriceAoa * line.quantity }));
  const details = orderDelivery(order);
  return {
    state: "issued",
    receipt: {
      invoiceNumber: order.invoice.number,
      issuedAt: order.invoice.issuedAt,
      externalTransactionId: order.externalTransactionId,
      orderNumber: shortOrderId(order.externalTransactionId),
      orderedAt: order.createdAt,
      paidAt: order.finalizedAt,
      customerName: order.customerName,
      customerNif: order.customerNif,
      lines,
      // An order from before amounts had parts: its amount is its lines' total.
      subtotalAoa: order.subtotalAoa ?? lines.reduce((sum, line) => sum + line.lineTotalAoa, 0),
      discountAoa: order.discountAoa,
      promoCode: order.promoCode,
      deliveryFeeAoa: order.deliveryFeeAoa,
      totalAoa: order.invoice.amountAoa,
      delivery: details.method
        ? { method: details.method, place: details.zone?.name ?? details.pickup?.name ?? null }
        : null,
    },
  };
}

/** An invoice number as the receipt prints it: six digits at least, `000042`. */
export const receiptNumber = (invoiceNumber: number): string => String(invoiceNumber).padStart(6, "0");

/** The seller as the receipt names it, from SHOP_LEGAL_NAME, SHOP_NIF and SHOP_ADDRESS. */
export interface ReceiptSeller {
  /** The legal name, or the shop's name when SHOP_LEGAL_NAME is unset. */
  name: string;
  /** The shop's name under a legal name that differs from it ("Loja Kwanza" under "Kwanza Comércio, Lda"). */
  tradingName: string | null;
  nif: string | null;
  /** SHOP_ADDRESS's lines; none when it is unset. */
  addressLines: string[];
}

export function receiptSeller(
  shop: { legalName: string | null; nif: string | null; address: string | null },
  shopName: string,
): ReceiptSeller {
  const name = shop.legalName ?? shopName;
  return {
    name,
    tradingName: name === shopName ? null : shopName,
    nif: shop.nif,
    addressLines: (shop.address ?? "")
      .split(/\r?\n|\\n/)
      .map((line) => line.trim())
      .filter(Boolean),
  };
}
