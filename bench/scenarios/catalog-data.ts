import type pg from "pg";

/**
 * The catalogue of the `search` and `category-page` scenarios: 10 000 products with Portuguese
 * names and descriptions (accents, Angolan places), in 21 categories of a two-level tree, one
 * gallery image each. Written once per bench run, before `next build` (so the build prerenders
 * the categories' pages with them), in one transaction of set-based statements (`unnest` of
 * arrays): no 10 000 requests to the app.
 *
 * Everything is deterministic (a seeded generator, ids derived from slugs, fixed dates), so a
 * build reused with BENCH_SKIP_BUILD=1 shows the same products as this run's database. The
 * products are older than the demo catalogue's (2025), so the product pages `next build` renders
 * ahead (the ones changed last, lib/catalog/cached-pages.ts) still include the demo products that
 * `product-page` measures.
 *
 * The vocabulary is sized so that a query finds tens to hundreds of products: about 125 kinds
 * of product, each named in about 80 products with one of a few qualifiers, places and sizes.
 */

export const BENCH_PRODUCT_COUNT = 10_000;

interface SubCategory {
  slug: string;
  name: string;
  /** Kinds of product: the start of each name. */
  kinds: string[];
  qualifiers: string[];
  sizes: string[];
  /** Price range in kwanza. */
  prices: [number, number];
  /** A demo image of public/products/ (the pages show it; the bench never fetches it). */
  image: string;
}

interface TopCategory {
  slug: string;
  name: string;
  /** Sentences a description picks from. */
  sentences: string[];
  children: SubCategory[];
}

const image = (slug: string) => `/products/${slug}.svg`;

export const BENCH_CATEGORIES: readonly TopCategory[] = [
  {
    slug: "alimentacao",
    name: "Alimentação",
    sentences: [
      "Produzido por pequenos agricultores e embalado em Luanda.",
      "Sem conservantes nem corantes.",
      "Ideal para o pequeno-almoço em família.",
      "Guarde em local fresco e seco, longe da luz.",
      "Receita tradicional angolana, como a da avó.",
      "Colheita desta época, escolhida à mão.",
      "Bom para acompanhar o funge e o calulu de peixe.",
    ],
    children: [
      {
        slug: "cafe-e-cha",
        name: "Café e chá",
        kinds: [
          "Café torrado",
          "Café moído",
          "Café em grão",
          "Café solúvel",
          "Chá de caxinde",
          "Chá preto",
          "Chá verde",
          "Chá de hibisco",
          "Infusão de gengibre",
        ],
        qualifiers: ["suave", "intenso", "biológico", "de torra média", "de torra escura", "aromático"],
        sizes: ["250 g", "500 g", "1 kg", "20 saquetas"],
        prices: [1_500, 12_000],
        image: image("cafe-de-angola-torrado-1kg"),
      },
      {
        slug: "arroz-feijao-e-farinhas",
        name: "Arroz, feijão e farinhas",
        kinds: [
          "Arroz agulha",
          "Arroz carolino",
          "Arroz basmati",
          "Feijão manteiga",
          "Feijão preto",
          "Feijão catarino",
          "Farinha de mandioca",
          "Farinha de milho",
          "Fuba de bombó",
          "Massa esparguete",
          "Massa cotovelinho",
        ],
        qualifiers: ["extra", "de primeira", "selecionado", "biológico", "tradicional"],
        sizes: ["500 g", "1 kg", "2 kg", "5 kg"],
        prices: [600, 9_000],
        image: image("ginguba-torrada-500g"),
      },
      {
        slug: "conservas",
        name: "Conservas",
        kinds: [
          "Atum em óleo",
          "Sardinhas em tomate",
          "Cavala",
          "Feijão cozido",
          "Grão-de-bico",
          "Milho doce",
          "Polpa de tomate",
          "Ervilhas",
        ],
        qualifiers: ["picante", "ao natural", "com limão", "em azeite", "tradicional"],
        sizes: ["120 g", "400 g", "lata de 800 g", "pack de 3"],
        prices: [400, 6_000],
        image: image("ginguba-torrada-500g"),
      },
      {
        slug: "azeites-e-temperos",
        name: "Azeites e temperos",
        kinds: [
          "Azeite virgem extra",
          "Óleo de palma",
          "Óleo de girassol",
          "Jindungo moído",
          "Piripíri",
          "Sal marinho",
          "Alho em pó",
          "Colorau",
          "Caril",
          "Vinagre de vinho",
        ],
        qualifiers: ["artesanal", "picante", "suave", "biológico", "fumado"],
        sizes: ["100 g", "250 ml", "500 ml", "1 L"],
        prices: [500, 15_000],
        image: image("oleo-de-palma-1l"),
      },
      {
        slug: "doces-e-chocolates",
        name: "Doces e chocolates",
        kinds: [
          "Chocolate amargo",
          "Chocolate de leite",
          "Bolachas de coco",
          "Bolachas de manteiga",
          "Doce de múcua",
          "Doce de goiaba",
          "Mel",
          "Compota de manga",
          "Rebuçados de gengibre",
          "Cocada",
        ],
        qualifiers: ["artesanal", "sem açúcar", "com amendoim", "com caju", "tradicional", "caseiro"],
        sizes: ["100 g", "200 g", "350 g", "500 g"],
        prices: [500, 8_000],
        image: image("doce-de-mucua-350g"),
      },
    ],
  },
  {
    slug: "bebidas",
    name: "Bebidas",
    sentences: [
      "Sirva bem fresco.",
      "Engarrafado em Angola.",
      "Acompanha bem uma muamba de galinha.",
      "Sem corantes artificiais.",
      "Depois de aberto, guarde no frigorífico e consuma em três dias.",
      "Para as festas de família e os fins de semana na ilha.",
    ],
    children: [
      {
        slug: "sumos-e-refrigerantes",
        name: "Sumos e refrigerantes",
        kinds: [
          "Sumo de manga",
          "Sumo de maracujá",
          "Sumo de múcua",
          "Sumo de laranja",
          "Refrigerante de cola",
          "Refrigerante de ananás",
          "Kissângua",
          "Limonada",
        ],
        qualifiers: ["natural", "sem açúcar", "gaseificado", "concentrado", "fresco"],
        sizes: ["330 ml", "1 L", "1,5 L", "pack de 6"],
        prices: [300, 5_000],
        image: image("mel-do-huambo-500g"),
      },
      {
        slug: "vinhos-e-cervejas",
        name: "Vinhos e cervejas",
        kinds: [
          "Vinho tinto",
          "Vinho branco",
          "Vinho rosé",
          "Cerveja loira",
          "Cerveja preta",
          "Espumante",
          "Licor de múcua",
          "Aguardente de cana",
        ],
        qualifiers: ["reserva", "seco", "meio seco", "artesanal", "de colheita tardia"],
        sizes: ["330 ml", "750 ml", "1 L", "caixa de 6"],
        prices: [500, 40_000],
        image: image("mel-do-huambo-500g"),
      },
      {
        slug: "aguas",
        name: "Águas",
        kinds: ["Água mineral", "Água com gás", "Água aromatizada com limão", "Água de coco"],
        qualifiers: ["natural", "fresca", "sem gás", "gaseificada"],
        sizes: ["500 ml", "1,5 L", "5 L", "pack de 12"],
        prices: [150, 3_000],
        image: image("mel-do-huambo-500g"),
      },
    ],
  },
  {
    slug: "casa-e-cozinha",
    name: "Casa e cozinha",
    sentences: [
      "Resistente e fácil de limpar.",
      "Feito à mão por artesãos do Bié.",
      "Pode ir à máquina de lavar loiça.",
      "Um presente que dura muitos anos.",
      "Materiais escolhidos para o clima quente e húmido.",
      "Garantia de dois anos.",
    ],
    children: [
      {
        slug: "panelas-e-tachos",
        name: "Panelas e tachos",
        kinds: [
          "Panela de pressão",
          "Tacho de barro",
          "Frigideira antiaderente",
          "Caçarola de ferro",
          "Panela de alumínio",
          "Wok",
          "Chaleira",
        ],
        qualifiers: ["inox", "com tampa", "de indução", "esmaltada", "grande"],
        sizes: ["20 cm", "24 cm", "28 cm", "5 L"],
        prices: [3_000, 60_000],
        image: image("cesto-de-palha-entrancado"),
      },
      {
        slug: "loica-e-copos",
        name: "Loiça e copos",
        kinds: [
          "Prato raso",
          "Prato fundo",
          "Caneca de cerâmica",
          "Copo de vidro",
          "Chávena de café",
          "Travessa de barro",
          "Taça de sobremesa",
        ],
        qualifiers: ["pintado à mão", "branco", "de porcelana", "reciclado", "rústico"],
        sizes: ["conjunto de 4", "conjunto de 6", "unidade", "conjunto de 12"],
        prices: [800, 30_000],
        image: image("cesto-de-palha-entrancado"),
      },
      {
        slug: "texteis-de-casa",
        name: "Têxteis de casa",
        kinds: [
          "Toalha de mesa",
          "Toalha de banho",
          "Lençol de algodão",
          "Almofada",
          "Cortina",
          "Tapete de sisal",
          "Pano de cozinha",
        ],
        qualifiers: ["estampado", "de algodão", "bordado à mão", "com padrão samakaka", "de linho"],
        sizes: ["150 × 250 cm", "50 × 50 cm", "casal", "solteiro"],
        prices: [1_500, 45_000],
        image: image("pano-samakaka-6-jardas"),
      },
    ],
  },
  {
    slug: "vestuario",
    name: "Vestuário",
    sentences: [
      "Tecido respirável, ideal para o calor de Luanda.",
      "Lavar à mão em água fria.",
      "Corte confortável para o dia a dia.",
      "Confecionado em Benguela com tecido africano.",
      "Cores que não desbotam na lavagem.",
      "Veja a tabela de tamanhos antes de escolher.",
    ],
    children: [
      {
        slug: "roupa-de-mulher",
        name: "Roupa de mulher",
        kinds: [
          "Vestido de capulana",
          "Saia de pano africano",
          "Blusa de algodão",
          "Lenço de cabeça",
          "Calças de linho",
          "Casaco de malha",
        ],
        qualifiers: ["estampado", "com padrão samakaka", "leve", "bordado", "clássico"],
        sizes: ["tamanho S", "tamanho M", "tamanho L", "tamanho XL"],
        prices: [2_500, 40_000],
        image: image("pano-samakaka-6-jardas"),
      },
      {
        slug: "roupa-de-homem",
        name: "Roupa de homem",
        kinds: [
          "Camisa de algodão",
          "Camisa de linho",
          "Calças de ganga",
          "Calções",
          "T-shirt dos Palancas Negras",
          "Casaco impermeável",
          "Boné",
        ],
        qualifiers: ["clássico", "estampado", "justo", "leve", "de manga curta"],
        sizes: ["tamanho S", "tamanho M", "tamanho L", "tamanho XXL"],
        prices: [2_000, 35_000],
        image: image("camisola-palancas-negras"),
      },
      {
        slug: "calcado",
        name: "Calçado",
        kinds: [
          "Sandálias de couro",
          "Sapatilhas de corrida",
          "Chinelos",
          "Sapatos de couro",
          "Botas de trabalho",
          "Alpercatas",
        ],
        qualifiers: ["confortáveis", "artesanais", "impermeáveis", "leves", "clássicos"],
        sizes: ["n.º 38", "n.º 40", "n.º 42", "n.º 44"],
        prices: [1_500, 50_000],
        image: image("camisola-palancas-negras"),
      },
    ],
  },
  {
    slug: "higiene-e-beleza",
    name: "Higiene e beleza",
    sentences: [
      "Adequado a todos os tipos de pele.",
      "Sem parabenos.",
      "Feito com ingredientes naturais de Angola.",
      "Testado dermatologicamente.",
      "Aroma suave a coco e baunilha.",
      "Não testado em animais.",
    ],
    children: [
      {
        slug: "sabonetes-e-cremes",
        name: "Sabonetes e cremes",
        kinds: [
          "Sabonete de karité",
          "Sabão azul",
          "Creme hidratante",
          "Óleo de coco",
          "Manteiga de karité",
          "Gel de banho",
          "Protetor solar",
        ],
        qualifiers: ["natural", "perfumado", "sem perfume", "para pele seca", "biológico"],
        sizes: ["100 g", "250 ml", "500 ml", "pack de 3"],
        prices: [300, 12_000],
        image: image("mel-do-huambo-500g"),
      },
      {
        slug: "cabelo",
        name: "Cabelo",
        kinds: [
          "Champô",
          "Amaciador",
          "Óleo capilar de rícino",
          "Creme de tranças",
          "Pente de madeira",
          "Extensões de cabelo",
        ],
        qualifiers: ["nutritivo", "para caracóis", "anticaspa", "natural", "fortificante"],
        sizes: ["250 ml", "500 ml", "1 L", "unidade"],
        prices: [500, 25_000],
        image: image("mel-do-huambo-500g"),
      },
    ],
  },
];

/** Where a product comes from, with its preposition: "do Huambo", "de Benguela". */
const PLACES = [
  "do Huambo",
  "de Benguela",
  "de Malanje",
  "do Uíge",
  "do Cuanza Sul",
  "do Namibe",
  "do Lubango",
  "de Cabinda",
  "do Bié",
  "do Moxico",
  "da Lunda Norte",
  "de Luanda",
  "do Amboim",
  "da Gabela",
];

/** mulberry32: a small seeded generator, so every run writes the same catalogue. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function slugify(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export interface BenchProduct {
  slug: string;
  name: string;
  description: string;
  imagePath: string;
  priceAoa: number;
  stock: number;
  /** Sub-categories' slugs: one, or two (siblings) for some. */
  categories: string[];
}

/** The 10 000 products, the same on every call. */
export function benchProducts(): BenchProduct[] {
  const random = seededRandom(23);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  // Each sub-category gets products in proportion to its kinds of product.
  const weighted = BENCH_CATEGORIES.flatMap((top) =>
    top.children.flatMap((child) => child.kinds.map(() => ({ top, child }))),
  );
  const products: BenchProduct[] = [];
  for (let index = 0; index < BENCH_PRODUCT_COUNT; index++) {
    const { top, child } = weighted[index % weighted.length]!;
    const kind = pick(child.kinds);
    const qualifier = pick(child.qualifiers);
    const place = random() < 0.6 ? ` ${pick(PLACES)}` : "";
    const name = `${kind} ${qualifier}${place}, ${pick(child.sizes)}`;
    const sentences = new Set([pick(top.sentences), pick(top.sentences)]);
    const description = `${kind} ${qualifier}${place || ` ${pick(PLACES)}`}. ${[...sentences].join(" ")}`;
    const [low, high] = child.prices;
    const categories = [child.slug];
    // One product in ten also in a sibling category (a mug in "Loiça e copos" and "Têxteis de casa"):
    // a top-level category's listing must still show it once.
    if (index % 10 === 9) {
      const other = pick(top.children).slug;
      if (other !== child.slug) categories.push(other);
    }
    products.push({
      slug: `${slugify(name)}-${index + 1}`,
      name,
      description,
      imagePath: child.image,
      priceAoa: Math.round((low + random() * (high - low)) / 50) * 50,
      // About one in twelve sold out.
      stock: random() < 0.08 ? 0 : 1 + Math.floor(random() * 200),
      categories,
    });
  }
  return products;
}

/** Rows already there: a run writes them once, whichever scenario asks first. */
const written = new WeakMap<pg.Pool, Promise<void>>();

/** Writes the bench catalogue into the run's database, once. */
export function ensureBenchCatalog(database: pg.Pool): Promise<void> {
  let done = written.get(database);
  if (!done) {
    done = writeBenchCatalog(database);
    written.set(database, done);
  }
  return done;
}

async function writeBenchCatalog(database: pg.Pool): Promise<void> {
  const client = await database.connect();
  try {
    await client.query("BEGIN");
    const { rowCount } = await client.query("SELECT 1 FROM categories WHERE slug = $1", [BENCH_CATEGORIES[0]!.slug]);
    if (rowCount) {
      await client.query("ROLLBACK");
      return;
    }
    // Ids derived from the slugs, so a reused build's pages name the same rows.
    const tops = BENCH_CATEGORIES.map((top, position) => ({ slug: top.slug, name: top.name, position }));
    await client.query(
      `INSERT INTO categories (id, slug, name, position)
       SELECT md5('bench-category:' || c.slug)::uuid, c.slug, c.name, c.position
       FROM unnest($1::text[], $2::text[], $3::integer[]) AS c(slug, name, position)`,
      [tops.map((c) => c.slug), tops.map((c) => c.name), tops.map((c) => c.position)],
    );
    const children = BENCH_CATEGORIES.flatMap((top) =>
      top.children.map((child, position) => ({ slug: child.slug, name: child.name, position, parent: top.slug })),
    );
    await client.query(
      `INSERT INTO categories (id, slug, name, position, parent_id)
       SELECT md5('bench-category:' || c.slug)::uuid, c.slug, c.name, c.position, md5('bench-category:' || c.parent)::uuid
       FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[]) AS c(slug, name, position, parent)`,
      [
        children.map((c) => c.slug),
        children.map((c) => c.name),
        children.map((c) => c.position),
        children.map((c) => c.parent),
      ],
    );
    const products = benchProducts();
    // Created a minute apart in 2025, in order: "newest" has a total order without ties to break.
    await client.query(
      `INSERT INTO products (id, slug, name, description, image_path, price_aoa, stock, created_at, updated_at)
       SELECT md5('bench-product:' || p.slug)::uuid, p.slug, p.name, p.description, p.image_path, p.price_aoa, p.stock,
              timestamp '2025-01-01' + p.n * interval '1 minute', timestamp '2025-01-01' + p.n * interval '1 minute'
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::integer[])
            WITH ORDINALITY AS p(slug, name, description, image_path, price_aoa, stock, n)`,
      [
        products.map((p) => p.slug),
        products.map((p) => p.name),
        products.map((p) => p.description),
        products.map((p) => p.imagePath),
        products.map((p) => p.priceAoa),
        products.map((p) => p.stock),
      ],
    );
    const links = products.flatMap((p) => p.categories.map((category) => [p.slug, category] as const));
    await client.query(
      `INSERT INTO product_categories (product_id, category_id)
       SELECT md5('bench-product:' || l.product)::uuid, md5('bench-category:' || l.category)::uuid
       FROM unnest($1::text[], $2::text[]) AS l(product, category)`,
      [links.map(([product]) => product), links.map(([, category]) => category)],
    );
    // Each product's image is the first of its gallery, described by its name, as the migration does.
    await client.query(
      `INSERT INTO gallery_images (product_id, position, path, alt)
       SELECT id, 0, image_path, left(name, 300) FROM products WHERE slug = ANY($1::text[])`,
      [products.map((p) => p.slug)],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  // What autovacuum would do within a minute or so, now: statistics for the planner, and the GIN
  // indexes' pending lists merged. Right after a bulk insert every search reads the whole pending
  // list (10 000 entries), several times slower: a figure of the insert, not of the search.
  // product_variants too (a trigger wrote one per product): without its statistics, a price filter's
  // variant check was planned as a join against every variant (`agua&maxPrice=1000` took four times as long).
  await database.query(
    "VACUUM ANALYZE products, product_variants, product_options, categories, product_categories, gallery_images",
  );
}
