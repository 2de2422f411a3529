/**
 * What the shopper sees of an order's refunds: the record on the order page and each refund's
 * printable note (/orders/<id>/refunds/<number>, lib/orders/refund-note.ts). In Portuguese
 * (Angola); composed into ../pt.ts.
 */

export const refundNoteTexts = {
  /** The order page's record: each refund or correcting entry, and what remains paid. */
  orderRefunds: {
    title: "Reembolsos e devoluções",
    refund: (number: string) => `Reembolso N.º ${number}`,
    correction: (number: string, corrected: string | null) =>
      corrected ? `Correcção N.º ${number} (da nota N.º ${corrected})` : `Correcção N.º ${number}`,
    refundedAt: "Data",
    amount: "Valor",
    method: "Método",
    reference: "Referência",
    returned: "Artigos devolvidos",
    /** The link to an entry's note; names its number, so that each link reads apart. */
    openNote: (number: string) => `Ver a nota de reembolso N.º ${number}`,
    paid: "Total pago",
    refunded: "Total reembolsado",
    netPaid: "Pago, descontados os reembolsos",
  },
  /** The printable note of one refund (A4 or an 80 mm roll, as the receipt). */
  refundNote: {
    title: (number: string) => `Nota de reembolso ${number}`,
    heading: "Nota de reembolso",
    /** A correcting entry's heading, naming the note it corrects. */
    correctionHeading: (corrected: string) => `Correcção da nota de reembolso N.º ${corrected}`,
    correctionOf: "Correcção",
    number: "N.º",
    issuedAt: "Emitida em",
    order: "Encomenda",
    receipt: "Recibo N.º",
    orderedAt: "Data da encomenda",
    paidAt: "Pago em",
    refundedTo: "Reembolsado a",
    refundedAt: "Data do reembolso",
    method: "Método",
    reference: "Referência",
    methods: {
      bank_transfer: "Transferência bancária",
      multicaixa_express: "Multicaixa Express",
      cash: "Numerário",
      other: "Outro",
    },
    returned: "Artigos devolvidos",
    nothingReturned: "Sem devolução de artigos: reembolso em dinheiro apenas.",
    quantity: "Qtd.",
    item: "Artigo",
    amount: "Valor reembolsado",
    correctionAmount: "Valor corrigido",
    orderPaid: "Total pago pela encomenda",
    refundedToDate: "Reembolsado até esta nota",
    notCreditNote: "Este documento não é uma nota de crédito certificada.",
    notCertified:
      "Comprova a devolução do valor indicado. Não é emitido por software de facturação certificado pela AGT.",
  },
};
