/**
 * Finding products: categories, search, sort and filters, a listing's pages, breadcrumbs, and a
 * product's gallery. Rendered on the server only, so the browser never loads them (unlike
 * ./storefront.ts). In Portuguese (Angola); composed into ../pt.ts.
 */

export const browseTexts = {
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
};
