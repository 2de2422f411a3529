// @ts-check
import { withPgClient } from "./pg-client.mjs";

/**
 * The demo catalogue of an Angolan shop, and the two ways to load it. Plain JavaScript so it
 * runs where no TypeScript runner is installed (`npm run db:seed` after `npm prune --omit=dev`,
 * `vercel-build` with SEED_DEMO_CATALOGUE=1); `npm run dev` and the tests load it too.
 */

/**
 * @typedef {object} DemoProduct
 * @property {string} slug
 * @property {string} name
 * @property {string} description Portuguese, as shown on the product card.
 * @property {string} imagePath Under public/, served by Next.js at this path.
 * @property {number} priceAoa Integer AOA (whole kwanza).
 * @property {number} initialStock Only used when the product is first inserted; re-seeding never touches live stock.
 */

/** @typedef {import("pg").Client | import("pg").Pool | import("pg").PoolClient} Queryable */

/**
 * @typedef {object} SeedResult
 * @property {number} products How many demo products the catalogue now holds.
 * @property {number} inserted
 * @property {number} updated Existing products whose name, description, image or price changed.
 */

/**
 * @param {string} slug
 * @param {string} name
 * @param {string} description
 * @param {number} priceAoa
 * @param {number} initialStock
 * @returns {DemoProduct}
 */
const product = (slug, name, description, priceAoa, initialStock) => ({
  slug,
  name,
  description,
  imagePath: `/products/${slug}.svg`,
  priceAoa,
  initialStock,
});

/** @type {readonly DemoProduct[]} */
export const DEMO_PRODUCTS = Object.freeze([
  product(
    "cafe-de-angola-torrado-1kg",
    "Café de Angola torrado, 1 kg",
    "Café das terras altas do Amboim, torra média e moagem para cafeteira. Aroma a chocolate e frutos secos.",
    8_500,
    30,
  ),
  product(
    "pano-samakaka-6-jardas",
    "Pano africano samakaka, 6 jardas",
    "O padrão tradicional angolano em algodão estampado, ideal para saias, camisas ou para amarrar à cintura.",
    18_000,
    20,
  ),
  product(
    "mascara-mwana-pwo",
    "Máscara Mwana Pwo em madeira",
    "Máscara tchokwe esculpida à mão por artesãos da Lunda, inspirada na figura da jovem mulher e ancestral.",
    45_000,
    5,
  ),
  product(
    "estatueta-o-pensador",
    "Estatueta O Pensador, 30 cm",
    "Réplica em madeira maciça do Pensador, símbolo da cultura angolana, esculpida e polida à mão.",
    28_000,
    8,
  ),
  product(
    "mel-do-huambo-500g",
    "Mel do Huambo, 500 g",
    "Mel puro de apicultores do planalto central, colhido de flores silvestres. Sem aditivos.",
    4_500,
    25,
  ),
  product(
    "ginguba-torrada-500g",
    "Ginguba torrada com sal, 500 g",
    "Amendoim torrado no forno e levemente salgado, o petisco de todas as esquinas de Luanda.",
    2_500,
    40,
  ),
  product(
    "oleo-de-palma-1l",
    "Óleo de palma (dendém), 1 L",
    "Óleo de palma vermelho de produção artesanal, indispensável na muamba de galinha e no calulu.",
    3_200,
    35,
  ),
  product(
    "jindungo-seco-moido-100g",
    "Jindungo seco moído, 100 g",
    "Malagueta angolana seca ao sol e moída. Muito picante: umas pitadas chegam para uma panela inteira.",
    2_800,
    30,
  ),
  product(
    "doce-de-mucua-350g",
    "Doce de múcua, 350 g",
    "Doce cremoso feito com a polpa do fruto do embondeiro, ácido e aveludado. Bom com pão ou gelado.",
    3_500,
    18,
  ),
  product(
    "camisola-palancas-negras",
    "Camisola dos Palancas Negras",
    "Camisola da seleção nacional de futebol nas cores vermelho e preto, em tecido respirável. Tamanhos S a XXL.",
    25_000,
    15,
  ),
  product(
    "livro-mayombe-pepetela",
    "Mayombe, de Pepetela",
    "O romance de guerrilheiros na floresta do Mayombe, em Cabinda, um clássico da literatura angolana.",
    9_500,
    12,
  ),
  product(
    "kissange-tradicional",
    "Kissange tradicional",
    "Instrumento de lamelas metálicas sobre caixa de ressonância em madeira, afinado à mão.",
    15_000,
    6,
  ),
  product(
    "cesto-de-palha-entrancado",
    "Cesto de palha entrançado",
    "Cesto com tampa entrançado à mão em palha natural, para pão, fruta ou arrumação.",
    7_500,
    10,
  ),
]);

const COLUMNS = "slug, name, description, image_path, price_aoa, stock";
const DEMO_ROWS = "SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::integer[])";

// One statement for the whole catalogue. Existing rows get the catalogue fields only, never
// `stock`, which customers' orders change; and only when something differs, so re-running
// the seed changes nothing, not even updated_at (which Prisma's @updatedAt would otherwise set).
const UPSERT_PRODUCTS = `
INSERT INTO products (${COLUMNS})
${DEMO_ROWS}
ON CONFLICT (slug) DO UPDATE SET
  name = EXCLUDED.name,
  description = EXCLUDED.description,
  image_path = EXCLUDED.image_path,
  price_aoa = EXCLUDED.price_aoa,
  updated_at = CURRENT_TIMESTAMP
WHERE (products.name, products.description, products.image_path, products.price_aoa)
  IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.description, EXCLUDED.image_path, EXCLUDED.price_aoa)
RETURNING (xmax = 0) AS inserted`;

// A deployed shop's catalogue belongs to its owner: the demo goes only into a table that has
// never held a product, in one statement (so two deployments building at once insert it once at most).
const INSERT_INTO_EMPTY_CATALOGUE = `
INSERT INTO products (${COLUMNS})
${DEMO_ROWS}
WHERE NOT EXISTS (SELECT 1 FROM products)
ON CONFLICT (slug) DO NOTHING`;

/**
 * Inserts or updates the demo catalogue. Safe to run any number of times (`npm run dev`, `npm run db:seed`).
 * @param {string | Queryable} target a connection string, or a connection to use
 * @returns {Promise<SeedResult>}
 */
export async function seedCatalog(target) {
  return withQueryable(target, async (queryable) => {
    const { rows } = await queryable.query(UPSERT_PRODUCTS, demoRowParameters());
    const inserted = rows.filter((row) => row.inserted).length;
    return { products: DEMO_PRODUCTS.length, inserted, updated: rows.length - inserted };
  });
}

/**
 * Loads the demo catalogue only when the products table is empty; otherwise changes nothing.
 * What a deployment does with SEED_DEMO_CATALOGUE=1 (scripts/vercel-build.mjs, the container's migrate step).
 * @param {string | Queryable} target
 * @returns {Promise<{ inserted: number }>}
 */
export async function seedCatalogIfEmpty(target) {
  return withQueryable(target, async (queryable) => {
    const { rowCount } = await queryable.query(INSERT_INTO_EMPTY_CATALOGUE, demoRowParameters());
    return { inserted: rowCount ?? 0 };
  });
}

function demoRowParameters() {
  return [
    DEMO_PRODUCTS.map((p) => p.slug),
    DEMO_PRODUCTS.map((p) => p.name),
    DEMO_PRODUCTS.map((p) => p.description),
    DEMO_PRODUCTS.map((p) => p.imagePath),
    DEMO_PRODUCTS.map((p) => p.priceAoa),
    DEMO_PRODUCTS.map((p) => p.initialStock),
  ];
}

/**
 * @template T
 * @param {string | Queryable} target
 * @param {(queryable: Queryable) => Promise<T>} use
 * @returns {Promise<T>}
 */
function withQueryable(target, use) {
  return typeof target === "string" ? withPgClient(target, use) : use(target);
}
