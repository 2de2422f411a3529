/**
 * The back office's products, their options and variants, categories and product images. In
 * Portuguese (Angola); composed into ../pt.ts.
 */

import { productFieldTexts } from "./product-fields";

export const adminCatalogTexts = {
  products: {
    title: "Produtos e stock",
    newProduct: "Novo produto",
    newTitle: "Novo produto",
    back: "Voltar aos produtos",
    count: (total: number) => (total === 1 ? "1 produto" : `${total} produtos`),
    none: "Ainda não há produtos.",
    /** Each product field's label and the form's hints (./product-fields.ts). */
    fields: productFieldTexts.labels,
    fieldHints: productFieldTexts.hints,
    priceHeading: "Preço",
    stockHint:
      "Se mudar o stock aqui, diga porquê. Se entretanto uma compra levar unidades, nada é guardado e a página mostra o stock novo.",
    imageHint: "PNG, JPEG ou WebP, até 2 MB. Sem imagem, o produto mostra a sua inicial até lhe juntar uma fotografia.",
    newImage: "Nova imagem (opcional)",
    newImageHint: "PNG, JPEG ou WebP, até 2 MB. Substitui a primeira imagem da galeria, a do catálogo.",
    imageAltHint:
      "Descreva a imagem para quem não a vê (os leitores de ecrã dizem este texto), por exemplo «Pacote de café torrado de 1 kg».",
    newImageAlt: "Texto alternativo da imagem nova (opcional)",
    newImageAltHint: "Vazio: a imagem nova fica com o texto da imagem que substitui.",
    categoriesHint:
      "Marque as categorias onde o produto aparece. Um produto numa subcategoria aparece também na categoria principal.",
    noCategories: "Ainda não há categorias: crie-as na página Categorias.",
    topLevelCategory: (name: string) => `${name} (categoria principal)`,
    currentImage: "Imagem actual",
    state: "Estado",
    onSale: "À venda",
    archived: "Arquivado",
    edit: "Editar",
    view: "Ver na loja",
    create: "Criar produto",
    save: "Guardar",
    archive: "Arquivar",
    restore: "Repor à venda",
    archiveHint:
      "Um produto arquivado sai do catálogo e não pode ser comprado; as encomendas e o histórico ficam. Os produtos nunca são apagados.",
    orderLines: (count: number) =>
      count === 0
        ? "Ainda sem encomendas."
        : count === 1
          ? "Aparece em 1 encomenda."
          : `Aparece em ${count} encomendas.`,
    adjustTitle: "Ajustar o stock",
    adjust: "Ajustar",
    history: "Histórico do stock",
    historyNote:
      "Mudanças feitas na gestão, as mais recentes primeiro, na hora de Luanda. As compras não aparecem aqui.",
    noHistory: "Sem mudanças de stock.",
    when: "Quando",
    change: "Mudança",
    after: "Stock depois",
    kind: { initial: "Stock inicial", edit: "Formulário do produto", adjustment: "Ajuste", return: "Devolução" },
    done: {
      created: "Produto criado. Já está à venda.",
      saved: "Alterações guardadas.",
      archived: "Produto arquivado: já não está à venda.",
      restored: "Produto reposto à venda.",
      adjusted: "Stock ajustado.",
    },
    errors: {
      invalid_input: "Há um campo inválido. Corrija-o e tente de novo.",
      slug_taken: "Já existe um produto com este endereço (slug).",
      stock_changed:
        "O stock mudou entretanto (houve uma compra). Nada foi guardado: veja o stock novo e tente de novo.",
      insufficient_stock: "O stock não pode ficar abaixo de zero nem acima do limite.",
      has_options: "Este produto tem opções: o preço e o stock são os de cada variante, na tabela de variantes.",
      image_empty: "O ficheiro da imagem está vazio.",
      image_too_large: "A imagem tem mais de 2 MB.",
      image_too_many_pixels:
        "A imagem tem mais de 40 megapíxeis (8000 × 5000, por exemplo). Reduza-a antes de a enviar.",
      unsupported_image: "A imagem tem de ser PNG, JPEG ou WebP.",
      image_unreadable: "Não foi possível ler a imagem: o ficheiro está danificado ou incompleto.",
    },
    fieldError: (field: string) => `Verifique o campo: ${field}.`,
  },
  /** The options and variants of /admin/products/<id> (lib/catalog/variants-admin.ts). */
  variantsAdmin: {
    optionsTitle: "Opções",
    optionsHint:
      "Até 3 opções (por exemplo Tamanho e Cor), cada uma com os seus valores separados por vírgulas. Ao guardar, as variantes passam a ser todas as combinações: as que continuam ficam como estão, as novas começam sem stock ao preço mais baixo do produto, e as que deixam de ser uma combinação são arquivadas. Deixe tudo vazio para o produto voltar a ter uma só variante.",
    optionName: (index: number) => `Nome da opção ${index}`,
    optionValues: (index: number) => `Valores da opção ${index}`,
    optionValuesHint: "Separados por vírgulas, por exemplo P, M, G.",
    saveOptions: "Aplicar opções e gerar variantes",
    variantsTitle: "Variantes",
    variantsHint:
      "O SKU, o preço, o stock e a imagem de cada variante. Se mudar um stock, diga porquê. Se uma compra levar unidades entretanto, nada é guardado e a página mostra o stock novo.",
    variant: "Variante",
    defaultVariant: "Única",
    sku: "SKU",
    price: "Preço (Kz)",
    stock: "Stock",
    image: "Imagem",
    state: "Estado",
    productImage: "A do produto",
    galleryImage: (index: number, alt: string) => `Imagem ${index}: ${alt}`,
    skuOf: (title: string) => `SKU de ${title}`,
    priceOf: (title: string) => `Preço de ${title}`,
    stockOf: (title: string) => `Stock de ${title}`,
    imageOf: (title: string) => `Imagem de ${title}`,
    stockReason: "Motivo das mudanças de stock",
    save: "Atualizar variantes",
    active: "À venda",
    archived: "Arquivada",
    archive: "Arquivar",
    restore: "Repor",
    archiveOf: (title: string) => ` ${title}`,
    archiveHint:
      "Arquivar uma variante tira-a da loja e dos carrinhos abertos; as encomendas que a venderam ficam como estavam. Não se apagam variantes.",
    variantToAdjust: "Variante",
    done: {
      options_saved: "Opções guardadas: as variantes são agora as suas combinações.",
      variants_saved: "Variantes guardadas.",
      archived: "Variante arquivada: já não está à venda.",
      restored: "Variante reposta à venda.",
    },
    errors: {
      invalid_input: "Há um campo inválido. Corrija-o e tente de novo.",
      stock_changed:
        "O stock de uma variante mudou entretanto (houve uma compra). Nada foi guardado: veja o stock novo e tente de novo.",
      sku_taken: "Outra variante já tem este SKU. Nada foi guardado.",
      variant_gone: "Uma variante foi arquivada entretanto. Nada foi guardado: veja a tabela de novo.",
      last_variant: "Um produto mantém pelo menos uma variante à venda: arquive o produto em vez dela.",
      combination_taken: "Outra variante à venda já tem esta combinação: arquive-a primeiro.",
      not_a_combination: "Os valores desta variante já não são uma combinação das opções do produto.",
    },
    fields: {
      options: "Opções",
      option1Name: "Nome da opção 1",
      option1Values: "Valores da opção 1",
      option2Name: "Nome da opção 2",
      option2Values: "Valores da opção 2",
      option3Name: "Nome da opção 3",
      option3Values: "Valores da opção 3",
      variants: "Variantes",
      sku: "SKU",
      priceAoa: "Preço",
      stock: "Stock",
      stockReason: "Motivo das mudanças de stock",
      imagePath: "Imagem",
    },
    fieldError: (field: string) => `Verifique o campo: ${field}.`,
  },
  /** /admin/categories and /admin/categories/<id> (lib/catalog/categories-admin.ts). */
  categories: {
    title: "Categorias",
    treeTitle: "Categorias da loja",
    treeHint:
      "Dois níveis: categorias principais (no menu da loja) e as suas subcategorias, pela ordem da posição e depois do nome.",
    count: (total: number) => (total === 1 ? "1 categoria" : `${total} categorias`),
    none: "Ainda não há categorias.",
    newTitle: "Nova categoria",
    name: "Nome",
    slug: "Endereço (slug)",
    slugHint:
      "Letras minúsculas, algarismos e hífenes. Se o deixar vazio, é feito a partir do nome (Café & Chá dá cafe-cha). Faz parte do endereço da página da categoria.",
    description: "Descrição (opcional)",
    parent: "Categoria principal",
    parentNone: "Nenhuma: é uma categoria principal",
    parentHint: "Só há dois níveis: uma subcategoria fica dentro de uma categoria principal.",
    parentLocked: "Esta categoria tem subcategorias, por isso fica no primeiro nível.",
    position: "Posição",
    positionHint: "Número inteiro; as categorias aparecem pela posição (0 primeiro) e depois pelo nome.",
    create: "Criar categoria",
    save: "Guardar",
    back: "Voltar às categorias",
    slugLabel: "Endereço",
    positionLabel: "Posição",
    products: (count: number) => (count === 1 ? "1 produto" : `${count} produtos`),
    subcategories: "Subcategorias",
    noSubcategories: "Sem subcategorias.",
    view: "Ver na loja",
    deleteTitle: "Apagar a categoria",
    deleteHint:
      "Os produtos desta categoria ficam apenas sem ela; nenhum produto é apagado. Uma categoria com subcategorias não pode ser apagada: mova-as ou apague-as primeiro. Também não pode ser apagada uma categoria a que um código promocional está limitado: o código passaria a valer para todos os produtos.",
    promoCodes: (codes: string) =>
      `Códigos promocionais limitados a esta categoria: ${codes}. Mude as categorias deles antes de a apagar.`,
    delete: "Apagar categoria",
    done: {
      created: "Categoria criada.",
      saved: "Alterações guardadas.",
      deleted: "Categoria apagada. Os seus produtos ficaram sem ela.",
    },
    errors: {
      invalid_input: "Há um campo inválido. Corrija-o e tente de novo.",
      slug_taken: "Já existe uma categoria com este endereço (slug).",
      too_deep:
        "As categorias só têm dois níveis: a categoria principal não pode ser uma subcategoria, e uma categoria com subcategorias não pode ir para dentro de outra.",
      has_children: "Esta categoria tem subcategorias. Mova-as ou apague-as antes de apagar esta.",
      has_promo_codes:
        "Há códigos promocionais limitados a esta categoria (ver abaixo). Apagá-la faria com que valessem para todos os produtos: mude primeiro as categorias deles na página dos códigos promocionais.",
    },
    fieldError: (field: string) => `Verifique o campo: ${field}.`,
  },
  /** The images of a product, on /admin/products/<id> (lib/catalog/gallery-admin.ts). */
  gallery: {
    title: "Imagens",
    hint: "A primeira imagem é a do produto no catálogo e no carrinho; sem nenhuma, mostram a inicial do nome no lugar da foto. Cada imagem tem um texto alternativo, que os leitores de ecrã dizem em vez dela.",
    count: (count: number, max: number) => `${count} de ${max} imagens.`,
    image: (index: number, count: number) => `Imagem ${index} de ${count}`,
    first: "Imagem principal",
    alt: "Texto alternativo",
    altOf: (index: number) => `Texto alternativo da imagem ${index}`,
    saveAlt: "Alterar texto",
    /** Said after a button's text by screen readers, so each image's buttons are told apart. */
    ofImage: (index: number) => ` a imagem ${index}`,
    textOfImage: (index: number) => ` da imagem ${index}`,
    moveUp: "Subir",
    moveDown: "Descer",
    remove: "Remover",
    addTitle: "Acrescentar uma imagem",
    file: "Ficheiro da imagem",
    fileHint: "PNG, JPEG ou WebP, até 2 MB. Fica no fim da galeria.",
    direction: "Direcção",
    add: "Acrescentar imagem",
    full: (max: number) => `A galeria já tem ${max} imagens: remova uma para acrescentar outra.`,
    done: {
      added: "Imagem acrescentada.",
      alt_saved: "Texto alternativo guardado.",
      moved: "Imagem movida.",
      removed: "Imagem removida da galeria.",
    },
    errors: {
      invalid_input: "Há um campo inválido. Corrija-o e tente de novo.",
      image_required: "Escolha uma imagem para acrescentar.",
      image_empty: "O ficheiro da imagem está vazio.",
      image_too_large: "A imagem tem mais de 2 MB.",
      image_too_many_pixels:
        "A imagem tem mais de 40 megapíxeis (8000 × 5000, por exemplo). Reduza-a antes de a enviar.",
      unsupported_image: "A imagem tem de ser PNG, JPEG ou WebP.",
      image_unreadable: "Não foi possível ler a imagem: o ficheiro está danificado ou incompleto.",
      duplicate_image: "Esta imagem já está na galeria.",
      gallery_full: "A galeria já está cheia. Remova uma imagem antes de acrescentar outra.",
      image_gone:
        "Esta imagem já não está na galeria: outra alteração removeu-a entretanto. Nada foi mudado; veja a galeria como está agora.",
      cannot_move: "A imagem já está no início ou no fim da galeria.",
    },
    fieldError: (field: string) => `Verifique o campo: ${field}.`,
  },
};
