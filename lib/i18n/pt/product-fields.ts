/**
 * A product's fields in words, in Portuguese (Angola): each field's label (the back office's
 * product form and the error that names the field; the shop's product page when it names one), the
 * form's hints, and the catalogue CSV's rules for the product's columns. Composed into
 * ./admin-catalog.ts and ./admin-catalog-csv.ts.
 */

export const productFieldTexts = {
  /** By field (lib/catalog/product-rules.ts PRODUCT_FIELDS): the flash of an error names it so too. */
  labels: {
    name: "Nome",
    slug: "Endereço (slug)",
    description: "Descrição",
    priceAoa: "Preço (Kz, inteiro)",
    stock: "Stock",
    stockReason: "Motivo da mudança de stock",
    image: "Imagem (opcional)",
    imageAlt: "Texto alternativo da imagem",
    categories: "Categorias",
    delta: "Unidades a somar (negativo para tirar)",
    reason: "Motivo",
  },
  /** The product form's hint under a field. */
  hints: {
    slug: "Letras minúsculas, algarismos e hífenes, por exemplo cafe-torrado-1kg. Faz parte do endereço da página do produto.",
  },
  /** The CSV's rules for the product's columns, in the file's order, after the rules for the file as a whole. */
  csvColumnRules: [
    "price_aoa: kwanzas inteiros, só algarismos (8500; não 8.500 nem 8500,50). stock: o stock que o produto deve ter; a diferença fica no histórico do stock com o motivo “CSV import”.",
    "categories: caminhos “Principal > Subcategoria” separados por |, por exemplo Mercearia > Café|Ofertas. Os nomes são encontrados sem contar maiúsculas nem acentos; os que não existem são criados. Só há dois níveis.",
    "images: os endereços das imagens que a loja já tem (/products/… ou /api/images/…, como a exportação os escreve), separados por |; image_alts: o texto alternativo de cada uma, pela mesma ordem. Ambas podem ficar vazias: um produto sem imagens mostra a inicial do nome no lugar da foto.",
  ],
};
