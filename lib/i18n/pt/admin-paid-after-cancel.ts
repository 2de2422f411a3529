/**
 * The owner's decision on an order paid after the shop had cancelled it (its attention item on
 * the home and on its page: components/admin/paid-after-cancel-actions.tsx). In Portuguese (Angola); composed into ../paid-after-cancel-texts.ts.
 */

import { refundNoteTexts } from "./refund-note";

export const adminPaidAfterCancelTexts = {
  paidAfterCancel: {
    hint: "O cliente pagou depois de a loja cancelar. Devolva o dinheiro, ou cumpra a encomenda se houver stock.",
    refund: "Reembolsar",
    amount: "Valor devolvido (Kz)",
    amountHint:
      "Por omissão, tudo o que foi pago. Qualquer reembolso fecha este aviso; o resto pode reembolsar-se depois na página da encomenda.",
    method: "Como foi devolvido",
    // How the money went back, named as the shopper's refund note names it.
    methods: refundNoteTexts.refundNote.methods,
    reference: "Referência do comprovativo (opcional)",
    note: "Nota do reembolso (opcional)",
    submitRefund: "Registar reembolso",
    fulfil: "Cumprir",
    fulfilHint:
      "Retira de novo do stock as unidades da encomenda, marca-a como paga, emite o recibo e avisa o cliente, como num pagamento normal.",
    short: "Falta stock para cumprir:",
    shortLine: (name: string, needed: number, inStock: number) => `${name}: precisa de ${needed}, há ${inStock}`,
    gone: (name: string) => `${name}: já não está no catálogo`,
  },
};
