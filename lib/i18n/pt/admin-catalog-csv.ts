/** The back office's catalogue CSV: its import and export. In Portuguese (Angola); composed into ../pt.ts. */

import { productFieldTexts } from "./product-fields";

export const adminCatalogCsvTexts = {
  /** /admin/catalogue: the catalogue CSV's import and export (lib/catalog/csv/). */
  catalogue: {
    title: "Catálogo em CSV",
    importTitle: "Importar um ficheiro CSV",
    importHint:
      "Primeiro verifique: nada é gravado, e a página mostra cada problema pela linha e pela coluna, ou o que o ficheiro muda. Depois importe o mesmo ficheiro, de uma vez só: ou tudo ou nada.",
    file: "Ficheiro CSV",
    fileHint: (megabytes: number, rows: number) =>
      `UTF-8, separado por vírgulas ou por ponto e vírgula, até ${megabytes} MB e ${rows.toLocaleString("pt-AO")} linhas.`,
    check: "Verificar (não grava nada)",
    applyTitle: "Importar este ficheiro",
    applyHint:
      "Escolha de novo o mesmo ficheiro. É verificado outra vez e importado numa só transacção; se entretanto mudou, nada é gravado.",
    apply: "Importar",
    checked: "Ficheiro verificado, sem problemas. Nada foi gravado ainda. Se o importar:",
    applied: "Ficheiro importado.",
    appliedHint: "A loja já mostra as mudanças.",
    invalid: (total: number) =>
      total === 1
        ? "O ficheiro tem 1 problema. Nada foi gravado."
        : `O ficheiro tem ${total} problemas. Nada foi gravado.`,
    firstProblems: (shown: number) =>
      `Mostram-se os primeiros ${shown}. Corrija-os e verifique de novo, ou veja a lista toda com npm run catalogue:import -- ficheiro.csv --dry-run.`,
    line: (line: number) => `Linha ${line}`,
    wholeFile: "O ficheiro",
    summary: {
      rows: "Linhas",
      created: "Produtos novos",
      updated: "Produtos alterados",
      unchanged: "Sem mudanças",
      categoriesCreated: "Categorias novas",
      imagesStored: "Imagens novas",
      archived: "Arquivados (continuam arquivados)",
    },
    formatTitle: "O formato",
    /** Its first rule: `columns` are the header's names, in order. */
    formatHeader: (columns: string) =>
      `A primeira linha tem os nomes das colunas: ${columns}. As que vêm depois de stock são opcionais.`,
    formatRules: [
      "Cada produto é encontrado pelo slug: um slug que a loja não tem cria um produto novo; os outros são actualizados. Importar o mesmo ficheiro duas vezes não muda nada.",
      ...productFieldTexts.csvColumnRules,
      "Uma célula categories ou images vazia deixa as categorias ou as imagens do produto como estão.",
      "Produtos com opções (Tamanho, Cor…): uma linha por variante, todas com o mesmo slug, cada uma com os nomes e valores das opções (option1_name, option1_value…), o seu sku, preço e stock. O nome, a descrição, as categorias e as imagens vêm da primeira linha do produto; nas outras, deixe-os vazios ou iguais. Uma variante que o ficheiro deixa de ter é arquivada. Uma célula sku vazia deixa o SKU como está.",
      "Para importar ficheiros de imagem (fotografias ao lado do CSV), use no servidor npm run catalogue:import -- catalogo.csv.",
    ],
    example: "Exemplo:",
    exportTitle: "Exportar o catálogo",
    exportHint:
      "Todos os produtos, também os arquivados, com as colunas que a importação lê. Edite-o numa folha de cálculo e importe-o: o que não mudou fica como está.",
    exportComma: "Descarregar CSV",
    exportSemicolon: "Descarregar CSV para o Excel (ponto e vírgula)",
    errors: {
      file_required: "Escolha o ficheiro CSV.",
      file_too_large: "O ficheiro tem mais de 20 MB. Divida-o em partes.",
      unsupported_media_type: "Envie o ficheiro pelo formulário.",
      unreadable: "O envio do ficheiro foi interrompido. Tente de novo.",
      not_checked: "Este não é o ficheiro que foi verificado. Verifique-o primeiro.",
      conflict:
        "Outra alteração do catálogo (um produto ou uma categoria criados, uma categoria movida) cruzou-se com a importação. Nada foi gravado: importe de novo.",
    },
    problems: {
      file_too_large: (value: string) => `O ficheiro tem mais de ${value} bytes.`,
      not_utf8: () => "O ficheiro não está em UTF-8. No Excel: Guardar como, “CSV UTF-8 (delimitado por vírgulas)”.",
      nul_character: () => "O ficheiro tem um carácter NUL, que nenhum texto da loja pode ter (é mesmo um CSV?).",
      empty_file: () => "O ficheiro não tem a linha com os nomes das colunas.",
      malformed: () => "O CSV não pode ser lido a partir daqui (umas aspas por fechar?).",
      missing_column: () => "Esta coluna falta na primeira linha.",
      unknown_column: () => "Esta coluna não existe no CSV do catálogo.",
      duplicate_column: () => "Esta coluna aparece duas vezes.",
      too_many_rows: (value: string) => `Um ficheiro tem no máximo ${value} linhas: divida-o.`,
      field_count: () => "A linha não tem o mesmo número de colunas que a primeira (falta ou sobra um separador?).",
      required: () => "Está vazio.",
      too_long: (value: string) => `Tem mais de ${value} caracteres.`,
      slug_format: () => "Só letras minúsculas, algarismos e hífenes, por exemplo cafe-torrado-1kg.",
      duplicate_slug: (value: string) =>
        `Este slug já está na linha ${value}: um produto sem opções aparece uma vez (um com opções, uma linha por variante).`,
      not_kwanza: () =>
        "Tem de ser um número inteiro de kwanzas, só com algarismos (sem pontos, vírgulas, espaços nem decimais).",
      not_whole: () => "Tem de ser um número inteiro, só com algarismos.",
      below_min: (value: string) => `Tem de ser pelo menos ${value}.`,
      above_max: (value: string) => `Tem de ser no máximo ${value}.`,
      category_empty_name: () => "Um caminho de categoria tem um nome vazio (escreva “Principal > Subcategoria”).",
      category_name_too_long: (value: string) => `O nome de categoria “${value}” é demasiado comprido.`,
      category_too_deep: (value: string) => `“${value}” tem mais de dois níveis; as categorias só têm dois.`,
      category_unusable_name: (value: string) =>
        `O nome de categoria “${value}” precisa de pelo menos uma letra ou algarismo.`,
      category_is_sub: (value: string) => `É uma subcategoria: escreva “${value}”.`,
      category_ambiguous: (value: string) =>
        `Há mais do que uma categoria chamada “${value}” (sem contar maiúsculas e acentos): mude o nome de uma delas.`,
      image_empty_path: () => "Um endereço de imagem está vazio (separe-os com |).",
      image_url: (value: string) => `“${value}” é um endereço da internet: a importação não descarrega imagens.`,
      image_bad_path: (value: string) =>
        `“${value}” não é um endereço de imagem da loja (/products/… ou /api/images/…).`,
      image_unknown: (value: string) => `A loja não tem a imagem “${value}”.`,
      image_file_not_allowed: (value: string) =>
        `“${value}” é um nome de ficheiro. Aqui só se indicam imagens que a loja já tem; para importar ficheiros use npm run catalogue:import.`,
      image_outside_folder: (value: string) => `“${value}” está fora da pasta do CSV.`,
      image_not_found: (value: string) => `O ficheiro “${value}” não existe.`,
      image_empty: (value: string) => `O ficheiro “${value}” está vazio.`,
      image_too_large: (value: string) => `A imagem “${value}” tem mais de 2 MB.`,
      image_too_many_pixels: (value: string) => `A imagem “${value}” tem mais de 40 megapíxeis.`,
      unsupported_image: (value: string) => `“${value}” não é uma imagem PNG, JPEG ou WebP.`,
      image_unreadable: (value: string) => `Não foi possível ler a imagem “${value}”: está danificada ou incompleta.`,
      image_duplicate: (value: string) => `“${value}” aparece duas vezes nas imagens deste produto.`,
      too_many_images: (value: string) => `Um produto tem no máximo ${value} imagens.`,
      alts_count: (value: string) => `Precisa de um texto alternativo por imagem, separados por | (${value} imagens).`,
      alts_without_images: () => "Há textos alternativos sem imagens na coluna images.",
      alt_empty: (value: string) => `O texto alternativo da imagem ${value} está vazio.`,
      alt_too_long: (value: string) => `O texto alternativo da imagem ${value} é demasiado comprido.`,
      product_column_differs: (value: string) =>
        `Difere da linha ${value}, a primeira deste produto: deixe-a vazia ou escreva o mesmo.`,
      option_gap: () => "Está vazia e uma opção seguinte está preenchida: preencha as opções a partir da opção 1.",
      option_text: () => "Deve ter de 1 a 40 caracteres, sem vírgulas.",
      option_name_twice: (value: string) => `A opção “${value}” aparece duas vezes nesta linha.`,
      option_names_differ: (value: string) =>
        `Não são as opções da linha ${value}: todas as linhas de um produto têm as mesmas opções, pela mesma ordem.`,
      duplicate_combination: (value: string) => `Esta combinação de valores já está na linha ${value}.`,
      too_many_values: () => "Uma opção tem no máximo 100 valores.",
      too_many_variants: () => "Os valores das opções fazem mais de 250 combinações.",
      product_has_options: () =>
        "Este produto tem opções: o ficheiro precisa das colunas de opções, uma linha por variante.",
      sku_format: () => "Só letras, algarismos e - _ . /, no máximo 64 caracteres.",
      duplicate_sku: (value: string) => `Este SKU já está na linha ${value}.`,
      sku_taken: (value: string) => `Este SKU é de outra variante (produto ${value}).`,
    },
  },
};
