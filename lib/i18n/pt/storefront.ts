/**
 * The shop's frame and catalogue pages: header, product cards, the product page and the cart's
 * notices: with ./states.ts, all that the catalogue's client components show
 * (../storefront-texts.ts), so what only the server renders belongs elsewhere (./browse.ts). In
 * Portuguese (Angola); composed into ../pt.ts.
 */

export const storefrontTexts = {
  shop: {
    name: "Loja Kwanza",
    description: "Loja de demonstração: pagamentos em kwanza (AOA) através do serviço de pagamentos.",
    mainNavigation: "Navegação principal",
    cart: "Carrinho",
    myOrders: "Encomendas",
    /** The header's way into the account (components/cart/header-cart-count.tsx): signed out, then signed in. */
    signIn: "Entrar",
    myAccount: "A minha conta",
    /** After the cart link's visible count, for screen readers: "Carrinho 1 artigo". */
    cartUnit: (count: number): string => (count === 1 ? "artigo" : "artigos"),
    language: "Idioma",
    /** Every language's own name, for the header's buttons (./dictionaries.ts checks none is missing). */
    languageNames: { pt: "Português", en: "English" },
    switchTo: (name: string) => `Mudar para ${name}`,
    /** The banner above the header with a pk_test_ key (components/ui/test-mode-banner.tsx). */
    testMode: "Modo de teste: nenhum pagamento é real",
  },
  catalog: {
    title: "Produtos",
    empty: "Ainda não há produtos. Corra `npm run db:seed`.",
    inStock: "Em stock",
    /** At or below LOW_STOCK_THRESHOLD units. */
    lowStock: (count: number) => `Só restam ${count}`,
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
    sku: "Referência",
    options: "Opções do produto",
    valueSoldOut: "esgotado",
    valueMissing: "não disponível",
    combinationMissing: "Esta combinação não está à venda",
    /** The link to the shop's WhatsApp (SHOP_WHATSAPP), and the text it types in. */
    askOnWhatsapp: "Perguntar no WhatsApp",
    whatsappText: (name: string, url: string) => `Olá! Tenho uma pergunta sobre ${name}: ${url}`,
  },
  /** The outcome of a cart form, shown on the next page (lib/cart/cart-notices.ts). */
  cartNotices: {
    added: "Adicionado ao carrinho.",
    updated: "Carrinho actualizado.",
    removed: "Artigo removido do carrinho.",
    capped: (max: number) => `A quantidade foi ajustada ao máximo disponível (${max}).`,
    limited: (max: number) =>
      `A quantidade foi ajustada a ${max}: a loja vende um número limitado de unidades por encomenda.`,
    invalid_input: "Pedido inválido: verifique a quantidade (um número inteiro a partir de 1).",
    unknown_product: "Esse produto não existe (ou já não está à venda).",
    unknown_variant: "Essa combinação não existe (ou já não está à venda). Escolha outra.",
    variant_required: "Escolha as opções do produto (por exemplo, o tamanho e a cor) antes de o adicionar.",
    out_of_stock: "Esse produto está esgotado.",
    too_many_lines: (max: number) => `O carrinho pode ter no máximo ${max} produtos diferentes.`,
    cart_full: "O carrinho já tem o máximo de unidades que uma encomenda pode ter. Retire algumas para juntar outras.",
    cart_locked:
      "Há um pagamento em curso para este carrinho: não pode ser alterado até o pagamento terminar ou ser cancelado.",
    no_cart: "Não há carrinho: adicione um produto primeiro.",
    line_not_found: "Esse artigo já não está no carrinho.",
  },
};
