import type pg from "pg";
import { withPgClient } from "./pg-client";

/**
 * The demo catalogue of an Angolan shop. Framework-free so `npm run dev`, `npm run db:seed`
 * and the tests can all load it with a plain connection.
 */

export interface DemoProduct {
  slug: string;
  name: string;
  /** Portuguese, as shown on the product card. */
  description: string;
  /** Under public/, served by Next.js at this path. */
  imagePath: string;
  /** Integer AOA (whole kwanza). */
  priceAoa: number;
  /** Only used when the product is first inserted; re-seeding never touches live stock. */
  initialStock: number;
}

const product = (
  slug: string,
  name: string,
  description: string,
  priceAoa: number,
  initialStock: number,
): DemoProduct => ({
  slug,
  name,
  description,
  imagePath: `/products/${slug}.svg`,
  priceAoa,
  initialStock,
});

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
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
];

export type SeedTarget = string | pg.Client | pg.Pool | pg.PoolClient;

export interface SeedResult {
  /** How many demo products the catalogue now holds. */
  products: number;
  inserted: number;
  /** Existing products whose name, description, image or price changed. */
  updated: number;
}

// One statement for the whole catalogue. Existing rows get the catalogue fields only, never
// `stock`, which customers' orders change; and only when something differs, so re-running
// the seed changes nothing, not even updated_at (which Prisma's @updatedAt would otherwise set).
const UPSERT_PRODUCTS = `
INSERT INTO products (slug, name, description, image_path, price_aoa, stock)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[], $6::integer[])
ON CONFLICT (slug) DO UPDATE SET
  name = EXCLUDED.name,
  description = EXCLUDED.description,
  image_path = EXCLUDED.image_path,
  price_aoa = EXCLUDED.price_aoa,
  updated_at = CURRENT_TIMESTAMP
WHERE (products.name, products.description, products.image_path, products.price_aoa)
  IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.description, EXCLUDED.image_path, EXCLUDED.price_aoa)
RETURNING (xmax = 0) AS inserted`;

/** Inserts or updates the demo catalogue. Safe to run any number of times. */
export async function seedCatalog(target: SeedTarget): Promise<SeedResult> {
  if (typeof target !== "string") return upsertDemoProducts(target);
  return withPgClient(target, upsertDemoProducts);
}

async function upsertDemoProducts(queryable: pg.Client | pg.Pool | pg.PoolClient): Promise<SeedResult> {
  const { rows } = await queryable.query<{ inserted: boolean }>(UPSERT_PRODUCTS, [
    DEMO_PRODUCTS.map((p) => p.slug),
    DEMO_PRODUCTS.map((p) => p.name),
    DEMO_PRODUCTS.map((p) => p.description),
    DEMO_PRODUCTS.map((p) => p.imagePath),
    DEMO_PRODUCTS.map((p) => p.priceAoa),
    DEMO_PRODUCTS.map((p) => p.initialStock),
  ]);
  const inserted = rows.filter((row) => row.inserted).length;
  return { products: DEMO_PRODUCTS.length, inserted, updated: rows.length - inserted };
}
