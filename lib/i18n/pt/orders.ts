/**
 * The shopper's order page, /orders and /orders/lookup, and the fulfilment states both the shop and
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
    paidAfterCancel: "Pagamento recebido depois do cancelamento",
    paidAfterCancelBody:
      "O pagamento chegou depois de a encomenda ter sido cancelada. A loja devolve-lhe o valor ou, se ainda tiver os artigos, envia a encomenda; esta página mostra o que for decidido.",
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
  /** /orders ("As minhas encomendas", lib/orders/lookup.ts) and /orders/lookup, which offers the sign-in by phone. */
  orders: {
    title: "As minhas encomendas",
    intro: "As encomendas feitas neste navegador, da mais recente para a mais antiga.",
    none: "Ainda não há encomendas feitas neste navegador.",
    otherDevice: "Encomendou noutro dispositivo?",
    signInForAll: "Entre com o telefone para ver todas as encomendas feitas com ele.",
    order: "Encomenda",
    date: "Data",
    status: "Estado",
    items: "Artigos",
    total: "Total",
    lookupTitle: "Encontrar uma encomenda",
    lookupIntro:
      "Para ver uma encomenda feita noutro dispositivo, entre com o telefone que usou ao encomendar: recebe um código por WhatsApp ou SMS e, em «A minha conta», aparecem todas as encomendas feitas com esse telefone.",
    lookupWhy:
      "A loja já não abre uma encomenda só com o número e o telefone: esses dados estão no talão da referência e nas mensagens que se partilham, e a encomenda tem a sua morada e o seu NIF.",
    signIn: "Entrar com o telefone",
    signedIn: "Já entrou com o seu telefone.",
    accountLink: "Ver as minhas encomendas em «A minha conta»",
    accountsOff:
      "Nesta loja ainda não é possível entrar com o telefone. Para saber de uma encomenda feita noutro dispositivo, fale com a loja.",
    myOrdersLink: "Ver as encomendas feitas neste navegador",
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
