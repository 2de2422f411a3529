/**
 * The refunds of an order's back-office page (components/admin/orders/refunds-section.tsx, the
 * owner's) and the order's timeline words for them. In English; composed into ../back-office.ts.
 */

import type { adminRefundTexts as pt } from "../pt/admin-refunds";

export const adminRefundTexts: typeof pt = {
  refunds: {
    title: "Refunds",
    paid: "Paid",
    refunded: "Refunded",
    remaining: "Left to refund",
    none: "No refund recorded.",
    methods: {
      bank_transfer: "bank transfer",
      multicaixa_express: "Multicaixa Express",
      cash: "cash",
      other: "other means",
    },
    entry: {
      refund: (number) => `Refund no. ${number}`,
      correction: (number, of) => `Correction no. ${number} of refund no. ${of}`,
      method: "Method",
      refundedAt: "Given back on",
      reference: "Reference",
      note: "Note",
      why: "Why",
      recordedBy: (name, at) => `Recorded by ${name} on ${at}`,
      deliveryFee: (amount) => `Includes ${amount} of the delivery fee.`,
      units: "Units returned",
      restocked: (count) => `${count} back in stock`,
      damaged: (count) => `${count} damaged`,
    },
    correct: {
      open: "Correct",
      amount: "Amount to take back (Kz)",
      amountHint: (left) =>
        `Empty: all of this refund not corrected yet (${left}). A correction only sets the money right: the units returned stay as they are (a stock mistake is fixed on the product's page).`,
      note: "Why",
      noteHint: "Required: for example, the bank sent the transfer back.",
      submit: "Record the correction",
      done: "Corrected in full.",
    },
    form: {
      title: "Record a refund",
      returns: "Units returned",
      returnsHint:
        "For each item, how many units go back to stock and how many came back damaged. Leave empty what did not come back.",
      returnable: (left, bought) => `${left} of ${bought} may come back`,
      restock: "Back to stock",
      damaged: "Damaged",
      allReturned: "Every unit bought has come back already.",
      noReturns:
        "The order was paid after it was cancelled and its items went back to stock when it was cancelled: only the money is refunded.",
      amount: "Amount (Kz)",
      amountHint: (remaining) =>
        `Optional. Empty: the value of the units returned after their share of the discount (plus the delivery fee, when ticked); without units returned, all that is left to refund (${remaining}).`,
      includeDeliveryFee: (fee) => `Include what is left of the delivery fee (${fee})`,
      method: "Method",
      choose: "Choose…",
      reference: "Proof's reference (optional)",
      note: "Note (optional)",
      refundedAt: "When the money went back (Luanda time)",
      refundedAtHint: "Empty: now.",
      submit: "Record the refund",
      fullyRefunded: "Everything paid has been refunded.",
    },
    done: {
      refunded: "The refund was recorded.",
      corrected: "The correction was recorded.",
    },
    errors: {
      invalid_input: (field) =>
        field ? `Check the field “${field}”: nothing was recorded.` : "Check the fields: nothing was recorded.",
      order_not_paid: "This order was never paid: there is nothing to refund.",
      nothing_to_return:
        "This order was cancelled and its items went back to stock already: refund the money alone, without units returned.",
      exceeds_paid: "The amount is more than is left to refund (shown above). Nothing was recorded.",
      exceeds_bought: "More units returned than were bought, counting earlier returns. Nothing was recorded.",
      busy: "The order was held by another change. Nothing was recorded: try again.",
      no_such_refund: "This order has no such refund.",
      not_a_refund: "A correction is not corrected: correct the refund, or record a new one.",
      exceeds_refund: "The correction is more than what of that refund is not corrected yet. Nothing was recorded.",
    },
    fields: {
      amountAoa: "Amount",
      method: "Method",
      reference: "Reference",
      note: "Note",
      refundedAt: "When",
      includeDeliveryFee: "Delivery fee",
      returns: "Units returned",
    },
    event: {
      refund: (number, amount, method, by) => `Refund no. ${number}: ${amount} by ${method} (by ${by})`,
      correction: (number, of, amount, by) => `Correction no. ${number} of refund no. ${of}: ${amount} (by ${by})`,
      refundedAt: (at) => `Given back on ${at}`,
    },
  },
};
