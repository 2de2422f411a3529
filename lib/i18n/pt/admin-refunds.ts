/**
 * The refunds of an order's back-office page (components/admin/orders/refunds-section.tsx, the
 * owner's): what was paid and given back, each refund and correcting entry, the form that records
 * a refund with its return, the one that corrects a refund, their outcomes, and the words of the
 * order's timeline for them. In Portuguese (Angola); composed into ../back-office.ts. The keys of
 * `methods`, `errors` and `fields` are lib/orders/refund-rules.ts's and refund-correction-rules.ts's
 * (the section indexes them with those types, so a missing one fails the type check).
 */

export const adminRefundTexts = {
  refunds: {
    title: "Reembolsos",
    paid: "Pago",
    refunded: "Reembolsado",
    remaining: "Por reembolsar",
    none: "Nenhum reembolso registado.",
    methods: {
      bank_transfer: "transferência bancária",
      multicaixa_express: "Multicaixa Express",
      cash: "dinheiro",
      other: "outro meio",
    },
    entry: {
      refund: (number: number) => `Reembolso n.º ${number}`,
      correction: (number: number, of: number) => `Correcção n.º ${number} do reembolso n.º ${of}`,
      method: "Método",
      refundedAt: "Devolvido em",
      reference: "Referência",
      note: "Nota",
      why: "Porquê",
      recordedBy: (name: string, at: string) => `Registado por ${name} em ${at}`,
      deliveryFee: (amount: string) => `Inclui ${amount} da taxa de entrega.`,
      units: "Unidades devolvidas",
      restocked: (count: number) => `${count} de volta ao stock`,
      damaged: (count: number) => (count === 1 ? "1 danificada" : `${count} danificadas`),
    },
    correct: {
      open: "Corrigir",
      amount: "Valor a retirar (Kz)",
      amountHint: (left: string) =>
        `Vazio: tudo o que deste reembolso ainda não foi corrigido (${left}). A correcção acerta só o dinheiro: as unidades devolvidas ficam como estão (um erro de stock corrige-se na página do produto).`,
      note: "Porquê",
      noteHint: "Obrigatório: por exemplo, o banco devolveu a transferência.",
      submit: "Registar a correcção",
      done: "Corrigido por completo.",
    },
    form: {
      title: "Registar um reembolso",
      returns: "Unidades devolvidas",
      returnsHint:
        "De cada artigo, quantas unidades voltam ao stock e quantas vieram danificadas. Deixe vazio o que não voltou.",
      returnable: (left: number, bought: number) => `Pode devolver ${left} de ${bought}`,
      restock: "De volta ao stock",
      damaged: "Danificadas",
      allReturned: "Todas as unidades compradas já foram devolvidas.",
      noReturns:
        "A encomenda foi paga depois de cancelada e os artigos voltaram ao stock no cancelamento: reembolsa-se só o dinheiro.",
      amount: "Valor (Kz)",
      amountHint: (remaining: string) =>
        `Opcional. Vazio: o valor das unidades devolvidas depois da sua parte do desconto (mais a taxa de entrega, se marcada); sem unidades devolvidas, tudo o que falta reembolsar (${remaining}).`,
      includeDeliveryFee: (fee: string) => `Incluir a taxa de entrega que falta (${fee})`,
      method: "Método",
      choose: "Escolha…",
      reference: "Referência do comprovativo (opcional)",
      note: "Nota (opcional)",
      refundedAt: "Quando o dinheiro foi devolvido (hora de Luanda)",
      refundedAtHint: "Vazio: agora.",
      submit: "Registar o reembolso",
      fullyRefunded: "Tudo o que foi pago já foi reembolsado.",
    },
    done: {
      refunded: "O reembolso foi registado.",
      corrected: "A correcção foi registada.",
    },
    errors: {
      invalid_input: (field: string | undefined) =>
        field ? `Verifique o campo «${field}»: nada foi registado.` : "Verifique os campos: nada foi registado.",
      order_not_paid: "Esta encomenda nunca foi paga: não há nada a reembolsar.",
      nothing_to_return:
        "Esta encomenda foi cancelada e os artigos já voltaram ao stock: reembolse só o dinheiro, sem unidades devolvidas.",
      exceeds_paid: "O valor passa o que falta reembolsar (mostrado acima). Nada foi registado.",
      exceeds_bought:
        "Há mais unidades devolvidas do que as compradas, contando as devoluções anteriores. Nada foi registado.",
      busy: "A encomenda estava ocupada por outra alteração. Nada foi registado: tente de novo.",
      no_such_refund: "Esse reembolso não existe nesta encomenda.",
      not_a_refund: "Uma correcção não se corrige: corrija o reembolso, ou registe um novo.",
      exceeds_refund: "A correcção passa o que desse reembolso ainda não foi corrigido. Nada foi registado.",
    },
    fields: {
      amountAoa: "Valor",
      method: "Método",
      reference: "Referência",
      note: "Nota",
      refundedAt: "Quando",
      includeDeliveryFee: "Taxa de entrega",
      returns: "Unidades devolvidas",
    },
    /** The order's timeline. */
    event: {
      refund: (number: number, amount: string, method: string, by: string) =>
        `Reembolso n.º ${number}: ${amount} por ${method} (por ${by})`,
      correction: (number: number, of: number, amount: string, by: string) =>
        `Correcção n.º ${number} do reembolso n.º ${of}: ${amount} (por ${by})`,
      refundedAt: (at: string) => `Devolvido em ${at}`,
    },
  },
};
