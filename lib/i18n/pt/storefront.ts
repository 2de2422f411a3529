/**
 * The shop's frame and catalogue pages: header, product lists, browse and search, the product
 * page, the not-found and error pages. In Portuguese (Angola); composed into ../pt.ts.
 */

export const storefrontTexts = {
  shop: {
    name: "Loja Kwanza",
    description: "Loja de demonstração: pagamentos em kwanza (AOA) através do serviço de pagamentos.",
    mainNavigation: "Navegação principal",
    cart: "Carrinho",
    myOrders: "Encomendas",
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
  browse: {
    categories: "Categorias",
    allProducts: "Todos os produtos",
    breadcrumbs: "Caminho",
    home: "Início",
    searchLabel: "Pesquisar produtos",
    searchPlaceholder: "Pesquisar…",
    searchButton: "Pesquisar",
    searchTitle: (q: string) => `Resultados para “${q}”`,
    searchTitleEmpty: "Pesquisar",
    resultCount: (total: number) => (total === 1 ? "1 produto" : `${total} produtos`),
    noResults: (q: string) => `Nenhum produto encontrado para “${q}”.`,
    noResultsFiltered: "Nenhum produto corresponde a estes filtros.",
    trySuggestions: "Experimente uma destas categorias:",
    clearFilters: "Limpar filtros",
    subcategories: "Subcategorias",
    refine: "Ordenar e filtrar",
    sort: "Ordenar por",
    sorts: {
      relevance: "Relevância",
      newest: "Mais recentes",
      price_asc: "Preço: do mais baixo",
      price_desc: "Preço: do mais alto",
      name: "Nome",
    },
    minPrice: "Preço mínimo (Kz)",
    maxPrice: "Preço máximo (Kz)",
    inStockOnly: "Só com stock",
    apply: "Aplicar",
    pagination: "Páginas",
    previous: "Anterior",
    next: "Seguinte",
    pageOf: (page: number, pages: number) => `Página ${page} de ${pages}`,
    goToPage: (page: number) => `Página ${page}`,
    pastLastPage: "Esta página já não existe.",
    firstPage: "Voltar à primeira página",
    priceFrom: (price: string) => `desde ${price}`,
    chooseOptions: "Escolher opções",
    chooseOptionsFor: (name: string) => `Escolher opções: ${name}`,
    optionValue: (value: string, count: number) => `${value} (${count})`,
  },
  gallery: {
    label: "Imagens do produto",
    showImage: (index: number, count: number) => `Mostrar imagem ${index} de ${count}`,
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
  notFound: {
    title: "Página não encontrada",
    body: "O endereço não existe ou já não está disponível.",
    home: "Ir para os produtos",
  },
  /** A page on its way (the loading.tsx files), and app/error.tsx and app/global-error.tsx. */
  states: {
    loading: "A carregar…",
    errorTitle: "Algo correu mal",
    errorBody: "Não foi possível mostrar esta página. Tente de novo daqui a pouco.",
    tryAgain: "Tentar de novo",
    home: "Ir para os produtos",
    /** The error's digest, which the shop's logs carry, for whoever the shopper contacts. */
    errorCode: (digest: string) => `Código do erro: ${digest}`,
  },
};
