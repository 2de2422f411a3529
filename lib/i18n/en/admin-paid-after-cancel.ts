/**
 * The owner's decision on an order paid after the shop had cancelled it (its attention item on
 * the home and on its page: components/admin/paid-after-cancel-actions.tsx). In English; composed into ../paid-after-cancel-texts.ts.
 */

import type { adminPaidAfterCancelTexts as pt } from "../pt/admin-paid-after-cancel";
import { refundNoteTexts } from "./refund-note";

export const adminPaidAfterCancelTexts: typeof pt = {
  paidAfterCancel: {
    hint: "The customer paid after the shop had cancelled. Give the money back, or fulfil the order if there is stock.",
    refund: "Refund",
    amount: "Amount given back (Kz)",
    amountHint:
      "By default, everything that was paid. Any refund closes this item; the rest can be refunded later on the order's page.",
    method: "How it went back",
    // How the money went back, named as the shopper's refund note names it.
    methods: refundNoteTexts.refundNote.methods,
    reference: "Proof's reference (optional)",
    note: "Refund note (optional)",
    submitRefund: "Record refund",
    fulfil: "Fulfil",
    fulfilHint:
      "Takes the order's units from stock again, marks it paid, issues the receipt and tells the customer, as a normal payment does.",
    short: "Not enough stock to fulfil:",
    shortLine: (name: string, needed: number, inStock: number) => `${name}: needs ${needed}, ${inStock} in stock`,
    gone: (name: string) => `${name}: no longer in the catalogue`,
  },
};
