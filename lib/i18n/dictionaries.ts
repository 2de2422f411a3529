import { DEFAULT_LANG, type Lang } from "./languages";

/**
 * Every sentence the shop shows, in Portuguese (the default) and English. `en` must have the
 * same shape as `pt` (the type checker enforces it), so a missing translation fails the build.
 * Prices are not here: they are always integer kwanza formatted for pt-AO (lib/money.ts).
 */

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A life span in minutes as people say it: "24 horas", "90 minutos". */
function durationPt(minutes: number): string {
  if (minutes % 1440 === 0 && minutes >= 2880) return plural(minutes / 1440, "dia", "dias");
  if (minutes % 60 === 0) return plural(minutes / 60, "hora", "horas");
  return plural(minutes, "minuto", "minutos");
}

function durationEn(minutes: number): string {
  if (minutes % 1440 === 0 && minutes >= 2880) return plural(minutes / 1440, "day", "days");
  if (minutes % 60 === 0) return plural(minutes / 60, "hour", "hours");
  return plural(minutes, "minute", "minutes");
}

export const pt = {
  shop: {
    name: "Loja Kwanza",
    description: "Loja de demonstração: pagamentos em kwanza (AOA) através do serviço de pagamentos.",
    mainNavigation: "Navegação principal",
    cart: "Carrinho",
    cartWithCount: (count: number) => `Carrinho, ${plural(count, "artigo", "artigos")}`,
    language: "Idioma",
    languageNames: { pt: "Português", en: "English" } satisfies Record<Lang, string>,
    switchTo: (name: string) => `Mudar para ${name}`,
    /** The banner above the header with a pk_test_ key (components/test-mode-banner.tsx). */
    testMode: "Modo de teste: nenhum pagamento é real",
  },
  catalog: {
    title: "Produtos",
    empty: "Ainda não há produtos. Corra `npm run db:seed`.",
    inStock: (count: number) => `${count} em stock`,
    soldOut: "Esgotado",
    addToCart: "Adicionar ao carrinho",
    addNamedToCart: (name: string) => `Adicionar ao carrinho: ${name}`,
  },
  product: {
    backToCatalog: "← Voltar aos produtos",
    price: "Preço",
    availability: "Disponibilidade",
    quantity: "Quantidade",
    quantityHint: (max: number) => `Entre 1 e ${max}.`,
  },
  cartNotices: {
    added: "Adicionado ao carrinho.",
    updated: "Carrinho actualizado.",
    removed: "Artigo removido do carrinho.",
    capped: (max: number) => `A quantidade foi ajustada ao máximo disponível (${max}).`,
    invalid_input: "Pedido inválido: verifique a quantidade (um número inteiro entre 1 e 99).",
    unknown_product: "Esse produto não existe (ou já não está à venda).",
    out_of_stock: "Esse produto está esgotado.",
    too_many_lines: (max: number) => `O carrinho pode ter no máximo ${max} produtos diferentes.`,
    cart_locked:
      "Há um pagamento em curso para este carrinho: não pode ser alterado até o pagamento terminar ou ser cancelado.",
    no_cart: "Não há carrinho: adicione um produto primeiro.",
    line_not_found: "Esse artigo já não está no carrinho.",
  },
  cart: {
    title: "Carrinho",
    empty: "O seu carrinho está vazio.",
    continueShopping: "Continuar a comprar",
    product: "Produto",
    unitPrice: "Preço unitário",
    quantity: "Quantidade",
    quantityOf: (name: string) => `Quantidade de ${name}`,
    update: "Actualizar",
    remove: "Remover",
    removeNamed: (name: string) => `Remover ${name}`,
    lineTotal: "Subtotal",
    total: "Total",
    checkout: "Finalizar compra",
    onlyInStock: (count: number) =>
      count === 0 ? "Esgotado: remova este artigo para continuar." : `Só há ${count} em stock: reduza a quantidade.`,
    fixStockFirst: "Ajuste as quantidades acima ao stock disponível para continuar.",
    lockedTitle: "Pagamento em curso",
    lockedBody:
      "Este carrinho está reservado para um pagamento que ainda não terminou, por isso não pode ser alterado.",
    continueCheckout: "Continuar o pagamento",
    cancelledTitle: "Pagamento cancelado",
    cancelledBody: "O pagamento foi cancelado e nada foi cobrado.",
    orderInProgressBody: "O pagamento desta encomenda ainda não terminou: não foi cancelado.",
    notCompletedTitle: "Pagamento não concluído",
    notCompletedBody:
      "A janela de pagamento foi fechada antes do fim. A encomenda continua reservada e pode ser paga; o carrinho só pode ser alterado depois de o pagamento terminar ou ser cancelado.",
    reopening: "A reabrir o carrinho…",
    reopenSlow: "O carrinho está a demorar a reabrir.",
    reload: "Recarregar",
    paidAfterAll: "Afinal, o pagamento desta encomenda foi confirmado.",
    viewOrder: "Ver a encomenda",
  },
  checkout: {
    title: "Finalizar compra",
    summary: "Resumo da encomenda",
    editCart: "Alterar o carrinho",
    customer: "Os seus dados",
    name: "Nome",
    phone: "Telefone",
    phoneHint: "Por exemplo +244 923 456 789.",
    nameInvalid: "Indique o seu nome (até 100 caracteres).",
    phoneInvalid: "Indique um número de telefone, por exemplo +244 923 456 789.",
    payment: "Pagamento",
    fillToPay: "Preencha o nome e o telefone para poder pagar.",
    lockedNote: "Já existe um pagamento em curso para este carrinho: o botão retoma-o.",
    total: "Total",
  },
  payButton: {
    loading: "A carregar o pagamento…",
    loadFailed: "Não foi possível carregar o botão de pagamento. Verifique a ligação.",
    configFailed: "O botão de pagamento não está bem configurado nesta loja. Tente mais tarde ou contacte a loja.",
    retry: "Tentar novamente",
    orderFailed: "Não foi possível iniciar o pagamento. Nada foi cobrado.",
    paymentFailed: "Ocorreu um erro no pagamento. Pode tentar novamente.",
    popupBlocked:
      "O navegador bloqueou a janela de pagamento. Permita janelas pop-up para esta loja e tente novamente.",
    /** Why the order could not be created: endpoint A's error code, or what the browser saw. */
    orderErrors: {
      network: "Não foi possível contactar a loja. Verifique a ligação e tente novamente.",
      invalid_response: "A loja deu uma resposta inesperada. Tente novamente.",
      unavailable: "A loja não conseguiu criar a encomenda. Tente novamente dentro de momentos.",
      invalid_request: "O nome ou o telefone não são válidos. Verifique-os e tente novamente.",
      cart_empty: "O carrinho está vazio.",
      cart_checked_out: "Este carrinho já foi pago.",
      checkout_in_progress: "Este carrinho já está a ser pago. Tente novamente dentro de momentos.",
      unknown_product: "Um dos produtos já não está à venda. Reveja o carrinho.",
      out_of_stock: "Já não há stock suficiente de um dos produtos. Reveja o carrinho.",
      amount_too_large: "O total da encomenda é demasiado elevado para um só pagamento.",
      payment_service_unavailable: "O serviço de pagamentos não está a responder. Tente novamente dentro de momentos.",
      payment_service_error: "O serviço de pagamentos recusou a encomenda.",
      rate_limited: "Demasiadas tentativas seguidas. Aguarde um minuto e tente novamente.",
      too_many_open_orders:
        "Já tem encomendas à espera de pagamento. Pague ou cancele uma delas, ou aguarde que expirem, e tente novamente.",
      other: "Tente novamente dentro de momentos.",
    },
  },
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
    lifeSpan: (minutes: number) => `A referência é válida durante ${durationPt(minutes)}.`,
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
  },
  notFound: {
    title: "Página não encontrada",
    body: "O endereço não existe ou já não está disponível.",
    home: "Ir para os produtos",
  },
};

export type Dictionary = typeof pt;

export const en: Dictionary = {
  shop: {
    name: "Loja Kwanza",
    description: "Demo shop: payments in kwanza (AOA) through the payment service.",
    mainNavigation: "Main navigation",
    cart: "Cart",
    cartWithCount: (count: number) => `Cart, ${plural(count, "item", "items")}`,
    language: "Language",
    languageNames: { pt: "Português", en: "English" },
    switchTo: (name: string) => `Switch to ${name}`,
    testMode: "Test mode: no payment is real",
  },
  catalog: {
    title: "Products",
    empty: "No products yet. Run `npm run db:seed`.",
    inStock: (count: number) => `${count} in stock`,
    soldOut: "Sold out",
    addToCart: "Add to cart",
    addNamedToCart: (name: string) => `Add to cart: ${name}`,
  },
  product: {
    backToCatalog: "← Back to products",
    price: "Price",
    availability: "Availability",
    quantity: "Quantity",
    quantityHint: (max: number) => `Between 1 and ${max}.`,
  },
  cartNotices: {
    added: "Added to your cart.",
    updated: "Cart updated.",
    removed: "Item removed from your cart.",
    capped: (max: number) => `The quantity was limited to what is available (${max}).`,
    invalid_input: "Invalid request: check the quantity (a whole number from 1 to 99).",
    unknown_product: "That product does not exist (or is no longer for sale).",
    out_of_stock: "That product is sold out.",
    too_many_lines: (max: number) => `A cart can hold at most ${max} different products.`,
    cart_locked: "A payment is in progress for this cart: it cannot change until the payment ends or is cancelled.",
    no_cart: "There is no cart: add a product first.",
    line_not_found: "That item is no longer in your cart.",
  },
  cart: {
    title: "Cart",
    empty: "Your cart is empty.",
    continueShopping: "Continue shopping",
    product: "Product",
    unitPrice: "Unit price",
    quantity: "Quantity",
    quantityOf: (name: string) => `Quantity of ${name}`,
    update: "Update",
    remove: "Remove",
    removeNamed: (name: string) => `Remove ${name}`,
    lineTotal: "Subtotal",
    total: "Total",
    checkout: "Check out",
    onlyInStock: (count: number) =>
      count === 0 ? "Sold out: remove this item to continue." : `Only ${count} in stock: lower the quantity.`,
    fixStockFirst: "Bring the quantities above within the available stock to continue.",
    lockedTitle: "Payment in progress",
    lockedBody: "This cart is held for a payment that has not finished yet, so it cannot be changed.",
    continueCheckout: "Continue the payment",
    cancelledTitle: "Payment cancelled",
    cancelledBody: "The payment was cancelled and nothing was charged.",
    orderInProgressBody: "The payment for this order has not finished yet: it was not cancelled.",
    notCompletedTitle: "Payment not completed",
    notCompletedBody:
      "The payment window was closed before the end. The order stays reserved and can still be paid; the cart can change once the payment ends or is cancelled.",
    reopening: "Reopening your cart…",
    reopenSlow: "Your cart is taking a while to reopen.",
    reload: "Reload",
    paidAfterAll: "The payment for this order was confirmed after all.",
    viewOrder: "View the order",
  },
  checkout: {
    title: "Check out",
    summary: "Order summary",
    editCart: "Change the cart",
    customer: "Your details",
    name: "Name",
    phone: "Phone",
    phoneHint: "For example +244 923 456 789.",
    nameInvalid: "Enter your name (up to 100 characters).",
    phoneInvalid: "Enter a phone number, for example +244 923 456 789.",
    payment: "Payment",
    fillToPay: "Fill in your name and phone to pay.",
    lockedNote: "A payment is already in progress for this cart: the button resumes it.",
    total: "Total",
  },
  payButton: {
    loading: "Loading the payment…",
    loadFailed: "The payment button could not be loaded. Check the connection.",
    configFailed: "The payment button is not set up correctly in this shop. Try again later or contact the shop.",
    retry: "Try again",
    orderFailed: "The payment could not be started. Nothing was charged.",
    paymentFailed: "Something went wrong with the payment. You can try again.",
    popupBlocked: "Your browser blocked the payment window. Allow pop-ups for this shop and try again.",
    orderErrors: {
      network: "The shop could not be reached. Check the connection and try again.",
      invalid_response: "The shop gave an unexpected answer. Try again.",
      unavailable: "The shop could not create the order. Try again in a moment.",
      invalid_request: "The name or phone is not valid. Check them and try again.",
      cart_empty: "Your cart is empty.",
      cart_checked_out: "This cart has already been paid for.",
      checkout_in_progress: "This cart is already being paid for. Try again in a moment.",
      unknown_product: "One of the products is no longer for sale. Review your cart.",
      out_of_stock: "One of the products no longer has enough stock. Review your cart.",
      amount_too_large: "The order total is too large for one payment.",
      payment_service_unavailable: "The payment service is not answering. Try again in a moment.",
      payment_service_error: "The payment service refused the order.",
      rate_limited: "Too many attempts in a row. Wait a minute and try again.",
      too_many_open_orders:
        "You already have orders waiting for payment. Pay or cancel one, or wait for them to expire, and try again.",
      other: "Try again in a moment.",
    },
  },
  order: {
    title: (shortId: string) => `Order ${shortId}`,
    successTitle: "Thank you for your purchase",
    pendingTitle: "Payment by reference",
    status: { PEN: "Pending", CON: "Paid", CAN: "Cancelled" },
    waiting: "Waiting for the payment to be confirmed…",
    waitingBody: "This page updates by itself when the payment service confirms.",
    pendingBody:
      "Pay with the details below at a cash machine or your bank. This page updates once the payment is confirmed.",
    referenceUnknown: "The payment reference appears here as soon as the service provides it.",
    paymentReference: "Reference",
    entityNumber: "Entity",
    amount: "Amount",
    copyNamed: (what: string) => `Copy ${what.toLowerCase()}`,
    copied: "Copied",
    copyFailed: "Could not copy; select it and copy by hand.",
    lifeSpan: (minutes: number) => `The reference is valid for ${durationEn(minutes)}.`,
    confirmed: "Payment confirmed",
    confirmedBody: "We received your payment. Thank you!",
    cancelled: "Payment cancelled",
    cancelledBody: "This order was cancelled and nothing was charged. The items are back in your cart.",
    backToCart: "Back to the cart",
    stillWaiting: "No confirmation yet.",
    checkAgain: "Check again",
    checking: "Checking…",
    lines: "Items",
    total: "Total",
    viewOrder: "View the order",
    continueShopping: "Continue shopping",
  },
  notFound: {
    title: "Page not found",
    body: "This address does not exist or is no longer available.",
    home: "Go to the products",
  },
};

const DICTIONARIES: Record<Lang, Dictionary> = { pt, en };

export function dictionary(lang: Lang = DEFAULT_LANG): Dictionary {
  return DICTIONARIES[lang];
}
