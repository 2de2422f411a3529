// A catalogue CSV of N products for `npm run catalogue:import` (bench/README.md, "CSV import"):
//
//   npx tsx bench/generate-catalogue-csv.ts [--rows 10000] [--out bench/results/catalogue-10000] [--prefix bench] [--shop-paths | --no-images] [--variants 4]
//
// writes <out>/catalogue.csv and its images: each product its own small PNG (images/<n>.png, a
// colour of its own, so every file is a different image to store), every third one a second image
// from a pool of 50 shared by many products (shared/<k>.png: stored once each), and one or two
// categories from a tree of 8 top-level categories with 5 sub-categories each, named with accents
// and capitals so the import's matching by name is exercised. Names and descriptions carry commas,
// quotes and, now and then, a line break. Deterministic: the same arguments write the same files.
// --shop-paths names the demo catalogue's images (/products/….svg) instead and writes no files: a
// file the back office's upload accepts, and the import's database work alone.
// --no-images leaves the images and image_alts cells empty and writes no files: a shop's first
// spreadsheet, before its photos.
// --variants k (1 to 8) makes each product one with options, Tamanho × Cor, in k lines (its first k
// combinations, each with a SKU; the product's own columns on its first line only): rows × k lines.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { crc32, deflateSync } from "node:zlib";
import { stringify } from "csv-stringify/sync";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "10000" },
    out: { type: "string" },
    prefix: { type: "string", default: "bench" },
    "shop-paths": { type: "boolean", default: false },
    "no-images": { type: "boolean", default: false },
    variants: { type: "string" },
  },
});
const variants = values.variants === undefined ? 0 : Number(values.variants);
if (!Number.isSafeInteger(variants) || variants < 0 || variants > 8)
  throw new Error("--variants must be a whole number from 1 to 8");
const COMBINATIONS = ["P", "M", "G", "GG"].flatMap((size) => ["Azul", "Branco"].map((colour) => [size, colour]));
const rows = Number(values.rows);
if (!Number.isSafeInteger(rows) || rows < 1) throw new Error("--rows must be a positive whole number");
const out = values.out ?? join("bench", "results", `catalogue-${rows}`);
const prefix = values.prefix;
const shopPaths = values["shop-paths"];
const noImages = values["no-images"];
if (shopPaths && noImages) throw new Error("--shop-paths and --no-images exclude each other");
const writesFiles = !shopPaths && !noImages;
const DEMO_IMAGES = ["/products/cafe-de-angola-torrado-1kg.svg", "/products/mel-do-huambo-500g.svg"];

const TOPS = ["Mercearia", "Bebidas", "Artesanato", "Vestuário", "Livros", "Música", "Casa e Jardim", "Beleza"];
const SUBS = ["Café e chá", "Doces", "Temperos", "Óleos", "Ofertas"];
const WORDS = ["Kwanza", "Palanca", "Mussulo", "Huíla", "Benguela", "Cuanza", "Mbanza", "Lunda", "Zaire", "Namibe"];
const SHARED_IMAGES = 50;

/** A PNG of one colour, 8×6: `seed` picks the colour, so different seeds are different files. */
function png(seed: number): Buffer {
  const [r, g, b] = [seed & 0xff, (seed >> 8) & 0xff, (seed >> 16) & 0xff];
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, "latin1");
    data.copy(out, 8);
    out.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(6, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.from([0, ...Array.from({ length: 8 }, () => [r, g, b]).flat()]);
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: 6 }, () => row)))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

await mkdir(out, { recursive: true });
if (writesFiles) {
  await mkdir(join(out, "images"), { recursive: true });
  await mkdir(join(out, "shared"), { recursive: true });
  for (let k = 0; k < SHARED_IMAGES; k++) await writeFile(join(out, "shared", `${k}.png`), png(0xffffff - k));
}

const records: (string | number)[][] = [
  [
    "slug",
    "name",
    "description",
    "price_aoa",
    "stock",
    "categories",
    "images",
    "image_alts",
    ...(variants > 0 ? ["option1_name", "option1_value", "option2_name", "option2_value", "sku"] : []),
  ],
];
for (let n = 0; n < rows; n++) {
  if (writesFiles) await writeFile(join(out, "images", `${n}.png`), png(n + 1));
  const word = WORDS[n % WORDS.length]!;
  const top = TOPS[n % TOPS.length]!;
  const sub = SUBS[Math.floor(n / TOPS.length) % SUBS.length]!;
  // Written now in capitals, now without accents: the import finds the same categories.
  const spelled =
    n % 3 === 0
      ? `${top.toUpperCase()} > ${sub}`
      : n % 3 === 1
        ? `${top} > ${sub.normalize("NFD").replace(/\p{M}/gu, "")}`
        : `${top} > ${sub}`;
  const categories = n % 4 === 0 ? `${spelled}|${TOPS[(n + 1) % TOPS.length]}` : spelled;
  const images = noImages
    ? []
    : shopPaths
      ? DEMO_IMAGES.slice(0, n % 3 === 0 ? 2 : 1)
      : [`images/${n}.png`, ...(n % 3 === 0 ? [`shared/${n % SHARED_IMAGES}.png`] : [])];
  const alts = noImages ? [] : [`${word} n.º ${n}, de frente`, ...(n % 3 === 0 ? ["A embalagem, com o rótulo"] : [])];
  const product = [
    `${prefix}-${n}`,
    `Produto ${word} n.º ${n}, "edição" ${1 + (n % 5)}`,
    n % 10 === 0
      ? `Uma descrição de duas linhas.\nSegunda linha, com vírgulas; e ponto e vírgula.`
      : `Artigo de ${top.toLowerCase()}, feito em Angola. Lote ${n}.`,
    500 + ((n * 37) % 100_000),
    n % 7,
    categories,
    images.join("|"),
    alts.join("|"),
  ];
  if (variants === 0) records.push(product);
  for (let k = 0; k < variants; k++) {
    const [size, colour] = COMBINATIONS[k]!;
    const own = k === 0 ? product.slice(1, 3) : ["", ""];
    const shared = k === 0 ? product.slice(5) : ["", "", ""];
    records.push([
      product[0]!,
      ...own,
      500 + ((n * 37 + k * 250) % 100_000),
      (n + k) % 7,
      ...shared,
      "Tamanho",
      size!,
      "Cor",
      colour!,
      `${prefix.toUpperCase()}-${n}-${k}`,
    ]);
  }
}
await writeFile(join(out, "catalogue.csv"), stringify(records, { record_delimiter: "\r\n" }));
console.log(
  `${join(out, "catalogue.csv")}: ${rows} products${variants > 0 ? ` of ${variants} variants` : ""}, ${writesFiles ? rows + SHARED_IMAGES : 0} image files`,
);
