/**
 * The shopper's order page, /orders and its lookup, and the fulfilment states both the shop and
 * the back office show. In Portuguese (Angola); composed into ../pt.ts.
 */

/** "1 hora", "24 horas". */
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A life span in minutes as people say it: "24 horas", "90 minutos". */
function duration(minutes: number): string {
  if (minutes % 1440 === 0 && minutes >= 2880) return plural(minutes / 1440, "dia", "dias");
  if (minutes % 60 === 0) return plural(minutes / 60, "hora", "horas");
  return plural(minutes, "minuto", "minutos");
}

export const orderTexts = {
  order: {
    title: (shortId: string) => `Encomenda ${shortId}`,
    successTitle: "Obrigado pela sua compra",
    pendingTitle: "Pagamento por referência",
    status: { PEN: "Pendente", CON: "Pago", CAN: "Cancelado" },
    waiting: "A aguardar a confirmação do pagamento…",
    waitingBody: "Esta página actualiza-se sozinha quando o serviço de pagamentos confirmar.",
    pendingBody:
      "Pague com os dados abaixo num caixa automático ou no seu banco. Esta página actualiza-se quando o pagamento for confirmado.",
    referenceUnknown: "A referência de pagamento aparece aqui assim que o serviço a indicar.",
    paymentReference: "Referência",
    entityNumber: "Entidade",
    amount: "Montante",
    copyNamed: (what: string) => `Copiar ${what.toLowerCase()}`,
    copied: "Copiado",
    copyFailed: "Não foi possível copiar; seleccione e copie à mão.",
    lifeSpan: (minutes: number) => `A referência é válida durante ${duration(minutes)}.`,
    payBy: (when: string) =>
      `Pague até ${when}: depois dessa hora a encomenda é cancelada e os artigos voltam à venda.`,
    /** A pending bank reference as the shopper keeps it (lib/orders/reference-slip.ts): shared, saved, shown. */
    slip: {
      heading: (shop: string) => `${shop}: pagamento por referência`,
      validUntil: "Válida até",
      copyValidUntil: "Copiar a data limite",
      luandaTime: (when: string) => `${when} (hora de Luanda)`,
      share: "Partilhar",
      shareName: "Partilhar a referência",
      save: "Guardar",
      saveName: "Guardar a referência num ficheiro",
    },
    confirmed: "Pagamento confirmado",
    confirmedBody: "Recebemos o seu pagamento. Obrigado!",
    cancelled: "Pagamento cancelado",
    cancelledBody: "Esta encomenda foi cancelada e nada foi cobrado. Os artigos voltaram ao seu carrinho.",
    backToCart: "Voltar ao carrinho",
    stillWaiting: "Ainda não temos a confirmação.",
    checkAgain: "Verificar de novo",
    checking: "A verificar…",
    lines: "Artigos",
    total: "Total",
    viewOrder: "Ver a encomenda",
    continueShopping: "Continuar a comprar",
    /** The link to the shop's WhatsApp (SHOP_WHATSAPP): the order's number only, never who bought it. */
    talkToUs: "Falar connosco",
    whatsappText: (shortId: string) => `Olá! Tenho uma pergunta sobre a encomenda ${shortId}.`,
  },
  /** /orders ("As minhas encomendas") and /orders/lookup (lib/orders/lookup.ts). */
  orders: {
    title: "As minhas encomendas",
    intro: "As encomendas feitas neste navegador, da mais recente para a mais antiga.",
    none: "Ainda não há encomendas feitas neste navegador.",
    lookupLink: "Encomenda feita noutro dispositivo? Encontre-a pelo número e pelo telefone.",
    order: "Encomenda",
    date: "Data",
    status: "Estado",
    items: "Artigos",
    total: "Total",
    lookupTitle: "Encontrar uma encomenda",
    lookupIntro: "Indique o número da encomenda e o telefone que usou ao pagar.",
    orderNumber: "Número da encomenda",
    orderNumberHint: "Está no título da página da encomenda, por exemplo «Encomenda 7CDAC2DD».",
    phone: "Telefone",
    phoneHint: "Como o escreveu ao pagar, com ou sem +244.",
    submit: "Procurar",
    myOrdersLink: "Ver as encomendas feitas neste navegador",
    errors: {
      not_found: "Não encontrámos nenhuma encomenda com esse número e esse telefone.",
      invalid_input: "Verifique o número (8 letras e algarismos) e o telefone.",
      rate_limited: "Demasiadas tentativas seguidas. Aguarde um minuto e tente de novo.",
      unavailable: "Não foi possível procurar agora. Tente de novo dentro de momentos.",
    },
  },
  /** A paid order's delivery and fulfilment (lib/orders/fulfilment-states.ts): the shopper's order page and the back office. */
  fulfilment: {
    states: {
      to_prepare: "Por preparar",
      shipped: "Enviada",
      ready_for_pickup: "Pronta para levantar",
      delivered: "Entregue",
      collected: "Levantada",
    },
    methods: { pickup: "Levantamento num ponto", delivery: "Entrega ao domicílio" },
    noMethod: "Sem método de entrega (encomenda anterior)",
    deliveryTitle: "Entrega",
    method: "Método",
    zone: "Zona",
    estimatedDays: (days: number) => (days === 1 ? "Prazo previsto: 1 dia" : `Prazo previsto: ${days} dias`),
    address: "Morada de entrega",
    pickupPoint: "Ponto de levantamento",
    hours: "Horário",
    email: "Email",
    subtotal: "Subtotal",
    discount: (code: string | null) => (code ? `Desconto (${code})` : "Desconto"),
    deliveryFee: "Entrega",
    total: "Total",
    stepsTitle: "Estado da encomenda",
    stepDone: (at: string) => `em ${at}`,
    stepToCome: "a seguir",
    note: "Nota da loja",
  },
};
