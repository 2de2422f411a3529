/** What the shopper sees of an order's refunds, in English: the same shape as ../pt/refund-note.ts. */

export const refundNoteTexts = {
  orderRefunds: {
    title: "Refunds and returns",
    refund: (number: string) => `Refund No. ${number}`,
    correction: (number: string, corrected: string | null) =>
      corrected ? `Correction No. ${number} (of note No. ${corrected})` : `Correction No. ${number}`,
    refundedAt: "Date",
    amount: "Amount",
    method: "Method",
    reference: "Reference",
    returned: "Items returned",
    openNote: (number: string) => `View refund note No. ${number}`,
    paid: "Total paid",
    refunded: "Total refunded",
    netPaid: "Paid, less refunds",
  },
  refundNote: {
    title: (number: string) => `Refund note ${number}`,
    heading: "Refund note",
    correctionHeading: (corrected: string) => `Correction of refund note No. ${corrected}`,
    correctionOf: "Correction",
    number: "No.",
    issuedAt: "Issued",
    order: "Order",
    receipt: "Receipt No.",
    orderedAt: "Ordered",
    paidAt: "Paid",
    refundedTo: "Refunded to",
    refundedAt: "Refunded on",
    method: "Method",
    reference: "Reference",
    methods: {
      bank_transfer: "Bank transfer",
      multicaixa_express: "Multicaixa Express",
      cash: "Cash",
      other: "Other",
    },
    returned: "Items returned",
    nothingReturned: "No items returned: a refund in money only.",
    quantity: "Qty",
    item: "Item",
    amount: "Amount refunded",
    correctionAmount: "Amount corrected",
    orderPaid: "Total paid for the order",
    refundedToDate: "Refunded up to this note",
    // Kept in Portuguese too, as the receipt keeps the tax administration's wording.
    notCreditNote:
      "This document is not a certified credit note (Este documento não é uma nota de crédito certificada).",
    notCertified:
      "It proves the amount shown was given back. It is not issued by invoicing software certified by Angola's tax administration (AGT).",
  },
};
