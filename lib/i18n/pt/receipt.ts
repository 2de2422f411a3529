/**
 * A paid order's receipt (/orders/<id>/receipt, lib/orders/receipt.ts) and the links to it. In
 * Portuguese (Angola); composed into ../pt.ts.
 */

export const receiptTexts = {
  receipt: {
    title: (number: string) => `Recibo ${number}`,
    heading: "Recibo",
    number: "N.º",
    open: "Ver o recibo",
    /** The back office's link, beside the order's invoice number. */
    openAdmin: (number: string) => `Abrir o recibo ${number}`,
    preparingTitle: "Recibo em preparação",
    preparing:
      "O pagamento está confirmado e o recibo está a ser preparado. Volte a abrir esta página dentro de instantes.",
    backToOrder: "Voltar à encomenda",
    print: "Imprimir",
    formats: "Formato de impressão",
    a4: "A4",
    thermal: "Talão 80 mm",
    seller: "Vendedor",
    nif: "NIF",
    customer: "Cliente",
    customerNif: "NIF do cliente",
    noName: "Consumidor final",
    order: "Encomenda",
    issuedAt: "Emitido em",
    orderedAt: "Data da encomenda",
    paidAt: "Pago em",
    luandaTime: "Horas de Luanda (WAT, UTC+1).",
    item: "Artigo",
    sku: "Ref.",
    quantity: "Qtd.",
    unitPrice: "Preço unit.",
    lineTotal: "Valor",
    subtotal: "Subtotal",
    discount: (code: string | null) => (code ? `Desconto (${code})` : "Desconto"),
    delivery: (place: string | null) => (place ? `Entrega (${place})` : "Entrega"),
    pickup: (place: string | null) => (place ? `Levantamento (${place})` : "Levantamento"),
    free: "Grátis",
    total: "Total pago",
    testMode: "Modo de teste: pago no ambiente de testes do serviço de pagamentos, sem valor real.",
    /** The words the tax administration asks of a document that is not an invoice, then why. */
    notAnInvoice: "Este documento não serve de factura.",
    notCertified:
      "É um comprovativo de pagamento, não uma factura emitida por software de facturação certificado pela AGT.",
  },
};
