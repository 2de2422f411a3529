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
 *   For a product with options (DEMO_VARIANTS), its variants' together.
 */

/** @typedef {import("pg").Client | import("pg").Pool | import("pg").PoolClient} Queryable */

/**
 * What a seed added, each only where it was missing; nothing that existed was changed.
 * @typedef {object} SeedResult
 * @property {number} products How many products the demo catalogue has.
 * @property {number} inserted Demo products added (with their variants, categories and gallery).
 * @property {number} kept Demo products that existed already (by slug), left exactly as they were.
 * @property {number} categories Demo categories added.
 * @property {number} pickupPoints Demo pickup points added.
 * @property {number} deliveryZones Demo delivery zones added.
 * @property {string[]} promoCodes Demo promo codes added.
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
    "Camisola da seleção nacional de futebol, vermelha ou preta, em tecido respirável. Tamanhos P a XG.",
    25_000,
    24,
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
    "Cesto com tampa entrançado à mão em palha natural, para pão, fruta ou arrumação. Em três tamanhos.",
    5_500,
    19,
  ),
]);

/**
 * @typedef {object} DemoCategory
 * @property {string} slug
 * @property {string} name
 * @property {string | null} parent The parent's slug; null for a top-level category.
 * @property {number} position
 * @property {string[]} products The slugs of the demo products in it.
 */

/**
 * The demo's pickup points (free) and Luanda delivery zones (lib/delivery/zones.ts), inserted only when
 * missing by name: an owner's changes (a fee, a zone turned off) are never undone by a re-seed.
 */
export const DEMO_PICKUP_POINTS = Object.freeze([
  {
    name: "Loja da Maianga",
    address: "Rua Rei Katyavala 45, Maianga, Luanda",
    hours: "Seg–Sex 8h–18h, Sáb 9h–13h",
    position: 0,
  },
  {
    name: "Loja de Talatona",
    address: "Via S8, Talatona Shopping, loja 12, Talatona, Luanda",
    hours: "Seg–Sáb 9h–20h, Dom 10h–14h",
    position: 1,
  },
]);

// Each zone's municipalities are Luanda's since the 2025 division (the old municipality of Luanda's
// districts Ingombota and Maianga are municipalities of their own, as is Kilamba). They are listed
// only with a zone the seed adds: a zone that exists keeps the list its owner gave it, or none.
export const DEMO_DELIVERY_ZONES = Object.freeze([
  {
    name: "Ingombota e Maianga",
    feeAoa: 1500,
    freeFromAoa: null,
    estimatedDays: 1,
    position: 0,
    municipalities: ["Ingombota", "Maianga"],
  },
  {
    name: "Talatona",
    feeAoa: 2500,
    freeFromAoa: 50000,
    estimatedDays: 2,
    position: 1,
    municipalities: ["Talatona", "Belas"],
  },
  {
    name: "Kilamba",
    feeAoa: 3000,
    freeFromAoa: null,
    estimatedDays: 2,
    position: 2,
    municipalities: ["Kilamba", "Kilamba Kiaxi"],
  },
  {
    name: "Viana",
    feeAoa: 3500,
    freeFromAoa: null,
    estimatedDays: 3,
    position: 3,
    municipalities: ["Viana", "Cazenga"],
  },
]);

/**
 * The demo's promo code (lib/promotions/promo-codes-admin.ts): 10 % off, no minimum, no dates, no limits.
 * Inserted only when missing by code: an owner's change (a limit, the code turned off) stays.
 */
export const DEMO_PROMO_CODES = Object.freeze([{ code: "BEMVINDO10", kind: "percent", value: 10 }]);

/** @type {readonly DemoCategory[]} */
export const DEMO_CATEGORIES = Object.freeze([
  { slug: "mercearia", name: "Mercearia", parent: null, position: 0, products: [] },
  {
    slug: "cafe-e-petiscos",
    name: "Café e petiscos",
    parent: "mercearia",
    position: 0,
    products: ["cafe-de-angola-torrado-1kg", "ginguba-torrada-500g"],
  },
  {
    slug: "doces-e-mel",
    name: "Doces e mel",
    parent: "mercearia",
    position: 1,
    products: ["mel-do-huambo-500g", "doce-de-mucua-350g"],
  },
  {
    slug: "temperos-e-oleos",
    name: "Temperos e óleos",
    parent: "mercearia",
    position: 2,
    products: ["oleo-de-palma-1l", "jindungo-seco-moido-100g"],
  },
  {
    slug: "artesanato",
    name: "Artesanato",
    parent: null,
    position: 1,
    products: ["mascara-mwana-pwo", "estatueta-o-pensador", "cesto-de-palha-entrancado"],
  },
  {
    slug: "moda",
    name: "Moda",
    parent: null,
    position: 2,
    products: ["pano-samakaka-6-jardas", "camisola-palancas-negras"],
  },
  {
    slug: "cultura",
    name: "Livros e música",
    parent: null,
    position: 3,
    products: ["livro-mayombe-pepetela", "kissange-tradicional"],
  },
]);

/**
 * Images after each demo product's first (its imagePath), with their text alternatives.
 * @type {Readonly<Record<string, readonly { path: string, alt: string }[]>>}
 */
export const DEMO_EXTRA_IMAGES = Object.freeze({
  "cafe-de-angola-torrado-1kg": [
    { path: "/products/cafe-de-angola-torrado-1kg-graos.svg", alt: "Grãos de café torrado, de perto" },
    { path: "/products/cafe-de-angola-torrado-1kg-chavena.svg", alt: "Uma chávena de café acabado de fazer" },
  ],
});

/**
 * @typedef {object} DemoVariant
 * @property {Record<string, string>} options A value of each option.
 * @property {string} sku
 * @property {number} priceAoa
 * @property {number} initialStock
 * @property {string} [imagePath] Its own image, when it has one.
 */

/**
 * The demo products sold with options: their options in order,
 * and their variants. A combination left out is not sold (the camisola is not made black in P).
 * @type {Readonly<Record<string, { options: { name: string, values: string[] }[], variants: DemoVariant[] }>>}
 */
export const DEMO_VARIANTS = Object.freeze({
  "camisola-palancas-negras": {
    options: [
      { name: "Tamanho", values: ["P", "M", "G", "XG"] },
      { name: "Cor", values: ["Vermelha", "Preta"] },
    ],
    variants: [
      ["P", "Vermelha", 25_000, 4],
      ["M", "Vermelha", 25_000, 6],
      ["G", "Vermelha", 25_000, 5],
      ["XG", "Vermelha", 27_000, 2],
      ["M", "Preta", 25_000, 3],
      ["G", "Preta", 25_000, 4],
      ["XG", "Preta", 27_000, 0],
    ].map(([size, colour, priceAoa, initialStock]) => ({
      options: { Tamanho: String(size), Cor: String(colour) },
      sku: `PAL-CAM-${size}-${colour === "Preta" ? "PRT" : "VRM"}`,
      priceAoa: Number(priceAoa),
      initialStock: Number(initialStock),
      ...(colour === "Preta" ? { imagePath: "/products/camisola-palancas-negras-preta.svg" } : {}),
    })),
  },
  "cesto-de-palha-entrancado": {
    options: [{ name: "Tamanho", values: ["Pequeno", "Médio", "Grande"] }],
    variants: [
      { options: { Tamanho: "Pequeno" }, sku: "CESTO-P", priceAoa: 5_500, initialStock: 6 },
      { options: { Tamanho: "Médio" }, sku: "CESTO-M", priceAoa: 7_500, initialStock: 10 },
      { options: { Tamanho: "Grande" }, sku: "CESTO-G", priceAoa: 11_000, initialStock: 3 },
    ],
  },
});

// The demo categories that are missing (by slug: a category the owner renamed stays as it is);
// the products the seed adds go into them, and get their gallery. A product that existed is not
// touched: not its categories, not its gallery, not its options.
const INSERT_CATEGORIES = `
INSERT INTO categories (slug, name, position, parent_id)
SELECT c.slug, c.name, c.position, parent.id
FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[]) AS c(slug, name, position, parent_slug)
LEFT JOIN categories parent ON parent.slug = c.parent_slug
ON CONFLICT (slug) DO NOTHING
RETURNING slug`;

const INSERT_PRODUCT_CATEGORIES = `
INSERT INTO product_categories (product_id, category_id)
SELECT p.id, c.id
FROM unnest($1::text[], $2::text[]) AS link(product_slug, category_slug)
JOIN products p ON p.slug = link.product_slug
JOIN categories c ON c.slug = link.category_slug
ON CONFLICT DO NOTHING`;

const INSERT_GALLERIES = `
INSERT INTO gallery_images (product_id, position, path, alt)
SELECT p.id, g.position, g.path, g.alt
FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[]) AS g(product_slug, position, path, alt)
JOIN products p ON p.slug = g.product_slug
WHERE NOT EXISTS (SELECT 1 FROM gallery_images existing WHERE existing.product_id = p.id)`;

// The options and variants of a demo product the seed has just added (only its default variant
// so far, which becomes the first combination).
const HAS_NO_OPTIONS = `
SELECT p.id FROM products p
WHERE p.slug = $1 AND NOT EXISTS (SELECT 1 FROM product_options o WHERE o.product_id = p.id)
ORDER BY p.id FOR NO KEY UPDATE OF p`;

/**
 * @param {Queryable} queryable a connection in a transaction
 * @param {string} slug
 */
async function seedVariants(queryable, slug) {
  const demo = DEMO_VARIANTS[slug];
  if (!demo) return;
  // The product's row first, then its variants (lib/catalog/stock.ts' lock order).
  const { rows } = await queryable.query(HAS_NO_OPTIONS, [slug]);
  const productId = rows[0]?.id;
  if (!productId) return;
  for (const [i, option] of demo.options.entries())
    await queryable.query(
      "INSERT INTO product_options (product_id, position, name, values) VALUES ($1, $2, $3, $4::text[])",
      [productId, i + 1, option.name, option.values],
    );
  const [first, ...rest] = demo.variants;
  if (!first) return;
  await queryable.query(
    `UPDATE product_variants SET options = $2::jsonb, sku = $3, price_aoa = $4, stock = $5, image_path = $6, updated_at = CURRENT_TIMESTAMP
     WHERE product_id = $1 AND options = '{}' AND archived_at IS NULL`,
    [productId, JSON.stringify(first.options), first.sku, first.priceAoa, first.initialStock, first.imagePath ?? null],
  );
  for (const [i, variant] of rest.entries())
    await queryable.query(
      `INSERT INTO product_variants (product_id, options, sku, price_aoa, stock, image_path, position)
       VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7)`,
      [
        productId,
        JSON.stringify(variant.options),
        variant.sku,
        variant.priceAoa,
        variant.initialStock,
        variant.imagePath ?? null,
        i + 1,
      ],
    );
}

/**
 * The demo categories that are missing, and for the products in `added` (slugs: those this seed
 * has just inserted) their categories, options and variants, and gallery.
 * @param {Queryable} queryable
 * @param {ReadonlySet<string>} added
 * @returns {Promise<number>} how many categories were added
 */
async function seedCategoriesAndGalleries(queryable, added) {
  let categories = 0;
  // Top-level categories first (in one statement, a sub-category's parent must already exist).
  for (const level of [DEMO_CATEGORIES.filter((c) => !c.parent), DEMO_CATEGORIES.filter((c) => c.parent)]) {
    const { rowCount } = await queryable.query(INSERT_CATEGORIES, [
      level.map((c) => c.slug),
      level.map((c) => c.name),
      level.map((c) => c.position),
      level.map((c) => c.parent),
    ]);
    categories += rowCount ?? 0;
  }
  const links = DEMO_CATEGORIES.flatMap((c) =>
    c.products.filter((product) => added.has(product)).map((product) => [product, c.slug]),
  );
  await queryable.query(INSERT_PRODUCT_CATEGORIES, [links.map((l) => l[0]), links.map((l) => l[1])]);
  for (const slug of Object.keys(DEMO_VARIANTS)) if (added.has(slug)) await seedVariants(queryable, slug);
  const images = DEMO_PRODUCTS.filter((p) => added.has(p.slug)).flatMap((p) =>
    [{ path: p.imagePath, alt: p.name }, ...(DEMO_EXTRA_IMAGES[p.slug] ?? [])].map((image, position) => ({
      slug: p.slug,
      position,
      ...image,
    })),
  );
  await queryable.query(INSERT_GALLERIES, [
    images.map((i) => i.slug),
    images.map((i) => i.position),
    images.map((i) => i.path),
    images.map((i) => i.alt),
  ]);
  return categories;
}

const INSERT_PICKUP_POINTS = `
INSERT INTO pickup_points (name, address, hours, position)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[])
ON CONFLICT (name) DO NOTHING
RETURNING name`;

const INSERT_DELIVERY_ZONES = `
INSERT INTO delivery_zones (name, fee_aoa, free_from_aoa, estimated_days, position)
SELECT * FROM unnest($1::text[], $2::integer[], $3::integer[], $4::integer[], $5::integer[])
ON CONFLICT (name) DO NOTHING
RETURNING id, name`;

// The municipalities of the zones just added; one another zone (the owner's) serves already stays its.
const INSERT_ZONE_MUNICIPALITIES = `
INSERT INTO delivery_zone_municipalities (zone_id, name)
SELECT * FROM unnest($1::uuid[], $2::text[])
ON CONFLICT ((delivery_municipality_key(name))) DO NOTHING`;

const INSERT_PROMO_CODES = `
INSERT INTO promo_codes (code, kind, value)
SELECT * FROM unnest($1::text[], $2::text[], $3::integer[])
ON CONFLICT (code) DO NOTHING
RETURNING code`;

/**
 * The demo's pickup points, delivery zones and promo code, adding only the missing ones (by name
 * and code: one the owner changed or turned off stays as it is).
 * @param {Queryable} queryable
 * @returns {Promise<{ pickupPoints: number, deliveryZones: number, promoCodes: string[] }>} what was added
 */
async function seedDeliveryMethods(queryable) {
  const points = DEMO_PICKUP_POINTS;
  const addedPoints = await queryable.query(INSERT_PICKUP_POINTS, [
    points.map((p) => p.name),
    points.map((p) => p.address),
    points.map((p) => p.hours),
    points.map((p) => p.position),
  ]);
  const zones = DEMO_DELIVERY_ZONES;
  const addedZones = await queryable.query(INSERT_DELIVERY_ZONES, [
    zones.map((z) => z.name),
    zones.map((z) => z.feeAoa),
    zones.map((z) => z.freeFromAoa),
    zones.map((z) => z.estimatedDays),
    zones.map((z) => z.position),
  ]);
  const listed = addedZones.rows.flatMap((row) =>
    (zones.find((z) => z.name === row.name)?.municipalities ?? []).map((name) => ({ zoneId: row.id, name })),
  );
  if (listed.length > 0)
    await queryable.query(INSERT_ZONE_MUNICIPALITIES, [listed.map((m) => m.zoneId), listed.map((m) => m.name)]);
  const codes = DEMO_PROMO_CODES;
  const addedCodes = await queryable.query(INSERT_PROMO_CODES, [
    codes.map((c) => c.code),
    codes.map((c) => c.kind),
    codes.map((c) => c.value),
  ]);
  return {
    pickupPoints: addedPoints.rowCount ?? 0,
    deliveryZones: addedZones.rowCount ?? 0,
    promoCodes: addedCodes.rows.map((row) => row.code),
  };
}

const COLUMNS = "slug, name, description, image_path, price_aoa, stock";
const DEMO_ROWS = "SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::integer[])";

// One statement for the whole catalogue: the demo products that are missing (by slug). One that
// exists is the owner's, whatever the back office made of it (name, price, stock, archived):
// never written. A new product gets its default variant from a trigger, at its price and stock.
const INSERT_MISSING_PRODUCTS = `
INSERT INTO products (${COLUMNS})
${DEMO_ROWS}
ON CONFLICT (slug) DO NOTHING
RETURNING slug`;

// A deployed shop's catalogue belongs to its owner: the demo goes only into a table that has
// never held a product, in one statement (so two deployments building at once insert it once at most).
const INSERT_INTO_EMPTY_CATALOGUE = `
INSERT INTO products (${COLUMNS})
${DEMO_ROWS}
WHERE NOT EXISTS (SELECT 1 FROM products)
ON CONFLICT (slug) DO NOTHING
RETURNING slug`;

/**
 * Adds what is missing of the demo catalogue and changes nothing that exists, so it is safe to
 * run any number of times, after any edit in the back office (`npm run db:seed`, the tests).
 * @param {string | Queryable} target a connection string, or a connection to use
 * @param {{ deliveryMethods?: boolean }} [options] `deliveryMethods: false` leaves out the demo's pickup
 *   points and delivery zones (a shop that offers none: the integration suite's shared shop)
 * @returns {Promise<SeedResult>}
 */
export async function seedCatalog(target, { deliveryMethods = true } = {}) {
  return withTransaction(target, async (queryable) => {
    const { rows } = await queryable.query(INSERT_MISSING_PRODUCTS, demoRowParameters());
    const added = new Set(rows.map((row) => row.slug));
    const categories = await seedCategoriesAndGalleries(queryable, added);
    const others = deliveryMethods
      ? await seedDeliveryMethods(queryable)
      : { pickupPoints: 0, deliveryZones: 0, promoCodes: [] };
    return {
      products: DEMO_PRODUCTS.length,
      inserted: added.size,
      kept: DEMO_PRODUCTS.length - added.size,
      categories,
      ...others,
    };
  });
}

/**
 * What a seed did, in words, for the scripts to print.
 * @param {SeedResult} result
 * @returns {string}
 */
export function describeSeed(result) {
  const plural = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) =>
    `${n} ${n === 1 ? one : many}`;
  const added = [
    result.categories && plural(result.categories, "category", "categories"),
    result.pickupPoints && plural(result.pickupPoints, "pickup point", "pickup points"),
    result.deliveryZones && plural(result.deliveryZones, "delivery zone", "delivery zones"),
    result.promoCodes.length &&
      `the promo code${result.promoCodes.length === 1 ? "" : "s"} ${result.promoCodes.join(", ")}`,
  ].filter(Boolean);
  return [
    `added ${plural(result.inserted, "product", "products")}`,
    `left ${plural(result.kept, "existing product", "existing products")} as ${result.kept === 1 ? "it is" : "they are"}`,
    added.length ? `added ${added.join(", ")}` : "no category, pickup point, delivery zone or promo code was missing",
  ].join("; ");
}

/**
 * Loads the demo catalogue only when the products table is empty; otherwise changes nothing.
 * What a deployment does with SEED_DEMO_CATALOGUE=1 (scripts/vercel-build.mjs, the container's
 * migrate step) and `npm run dev`.
 * @param {string | Queryable} target
 * @returns {Promise<{ inserted: number }>}
 */
export async function seedCatalogIfEmpty(target) {
  return withTransaction(target, async (queryable) => {
    const { rows } = await queryable.query(INSERT_INTO_EMPTY_CATALOGUE, demoRowParameters());
    if (rows.length) {
      await seedCategoriesAndGalleries(queryable, new Set(rows.map((row) => row.slug)));
      await seedDeliveryMethods(queryable);
    }
    return { inserted: rows.length };
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

/**
 * `use` in one transaction on one connection (a pool lends one): the seed's locks and writes
 * commit together.
 * @template T
 * @param {string | Queryable} target
 * @param {(queryable: Queryable) => Promise<T>} use
 * @returns {Promise<T>}
 */
async function withTransaction(target, use) {
  if (typeof target !== "string" && "totalCount" in target) {
    const client = await target.connect();
    try {
      return await withTransaction(client, use);
    } finally {
      client.release();
    }
  }
  return withQueryable(target, async (queryable) => {
    await queryable.query("BEGIN");
    try {
      const result = await use(queryable);
      await queryable.query("COMMIT");
      return result;
    } catch (error) {
      await queryable.query("ROLLBACK");
      throw error;
    }
  });
}
