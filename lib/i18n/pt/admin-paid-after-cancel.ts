/**
 * The owner's decision on an order paid after the shop had cancelled it (its attention item on
 * the home and on its page: components/admin/paid-after-cancel-actions.tsx), and the refund's
 * outcome on the order's page. In Portuguese (Angola); composed into ../paid-after-cancel-texts.ts.
 */

export const adminPaidAfterCancelTexts = {
  paidAfterCancel: {
    hint: "O cliente pagou depois de a loja cancelar. Devolva o dinheiro, ou cumpra a encomenda se houver stock.",
    refund: "Reembolsar",
    amount: "Valor devolvido (Kz)",
    amountHint:
      "Por omissão, tudo o que foi pago. Qualquer reembolso fecha este aviso; o resto pode reembolsar-se depois na página da encomenda.",
    method: "Como foi devolvido",
    methods: {
      bank_transfer: "Transferência bancária",
      multicaixa_express: "Multicaixa Express",
      cash: "Numerário",
      other: "Outro",
    },
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
  /** A refund's outcome (lib/orders/refund-rules.ts REFUND_FLASH), on the order's page. */
  refundFlash: {
    refunded: "Reembolso registado.",
    errors: {
      invalid_input: "O reembolso não foi registado: verifique o valor, a forma e a data.",
      order_not_paid: "Esta encomenda nunca foi paga: não há nada a reembolsar.",
      nothing_to_return: "Esta encomenda foi cancelada e as unidades voltaram ao stock: reembolse só o dinheiro.",
      exceeds_paid: "Esse valor passa o que a encomenda pagou, contando os reembolsos anteriores.",
      exceeds_bought: "Essas unidades passam as que foram compradas, contando as devoluções anteriores.",
      busy: "A encomenda estava a ser alterada por outra pessoa. Nada foi registado: tente de novo.",
    },
  },
};
