import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildTools } from "@/scripts/build-tools.mjs";
import { applyMigrations } from "@/scripts/db/migrate.mjs";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyPaymentUpdate } from "@/lib/orders/state-machine";
import { payClient } from "@/lib/orders/pay-client";
import { createTestDatabase, type TestDatabase } from "../../harness/support/database";
import { newExternalTransactionId } from "../../harness/support/orders";
import { suiteSandboxControl } from "../../harness/support/sandbox";

// `npm run worker -- --once`, its built twin and `npm run reconcile` as an operator runs them:
// child processes configured by environment alone, against the suite's sandbox and a database of
// this file's own (a worker runs every due job it finds, so it must not find other files' jobs).

const root = fileURLToPath(new URL("../../", import.meta.url));
// One connection on embedded PGlite, which cannot keep concurrent connections' statements apart.
const embedded = !process.env.TEST_SERVER_DATABASE_URL;

let database: TestDatabase;
let client: PrismaClient;

beforeAll(async () => {
  database = await createTestDatabase("scripts");
  await applyMigrations({ connectionString: database.url });
  client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url, max: 1 }) });
});
afterAll(async () => {
  await client?.$disconnect();
  await database?.drop();
});

/** `npm run <args>` in the repository, as runInRepository runs it. */
function npmRun(args: string[]): Promise<{ code: number; output: string }> {
  return runInRepository("npm", ["run", "--silent", ...args]);
}

/** Runs a command in the repository with the suite's PAY_ settings and this file's database. */
function runInRepository(command: string, args: string[]): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...inject("appEnv"),
    DATABASE_URL: database.url,
    DATABASE_POOL_MAX: embedded ? "1" : "2",
    // Mail goes to the outbox (the emails table), never to a server.
    SMTP_URL: "",
  };
  return new Promise((resolve) => {
    execFile(command, args, { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** A product, a locked cart holding `quantity` of it, and a PEN order for them, as create-order leaves them. */
async function insertPendingOrder(options: { quantity: number; stockLeft: number; referenceNumber?: string }) {
  const product = await client.product.create({
    data: {
      slug: `script-${randomUUID()}`,
      name: "Café do Amboim 1 kg",
      description: "Criado por um teste.",
      imagePath: "/products/cafe-amboim.svg",
      priceAoa: 2500,
      stock: options.stockLeft,
    },
  });
  const cart = await client.cart.create({
    data: { status: "LOCKED", items: { create: { productId: product.id, quantity: options.quantity } } },
  });
  const order = await client.order.create({
    data: {
      externalTransactionId: newExternalTransactionId(),
      referenceNumber: options.referenceNumber,
      amountAoa: product.priceAoa * options.quantity,
      clientId: `shopper_${randomUUID()}`,
      cartId: cart.id,
      lines: {
        create: {
          productId: product.id,
          productName: product.name,
          unitPriceAoa: product.priceAoa,
          quantity: options.quantity,
        },
      },
    },
  });
  return { order, product, cart };
}

/** A cancelled order's jobs, run by `worker` (a promise of its exit): its stock comes back and its cart reopens. */
async function expectWorkerRunsCancelledOrdersJobs(worker: () => Promise<{ code: number; output: string }>) {
  const { order, product, cart } = await insertPendingOrder({ quantity: 2, stockLeft: 8 });
  await applyPaymentUpdate(client, { externalTransactionId: order.externalTransactionId }, { status: "CAN" });

  const run = await worker();
  expect(run.code, run.output).toBe(0);
  expect(run.output).toContain("ran the due jobs: 2 done, 0 retried, 0 parked");
  const jobs = await client.job.findMany({
    where: { dedupeKey: { endsWith: `:${order.externalTransactionId}` } },
    select: { type: true, status: true },
    orderBy: { type: "asc" },
  });
  expect(jobs).toEqual([
    { type: "release-stock", status: "DONE" },
    { type: "reopen-cart", status: "DONE" },
  ]);
  expect((await client.product.findUniqueOrThrow({ where: { id: product.id } })).stock).toBe(10);
  expect((await client.cart.findUniqueOrThrow({ where: { id: cart.id } })).status).toBe("OPEN");
}

describe("npm run worker -- --once", () => {
  it("runs the due jobs and exits 0: a cancelled order's stock comes back and its cart reopens", async () => {
    await expectWorkerRunsCancelledOrdersJobs(() => npmRun(["worker", "--", "--once"]));
  });
});

describe("the built worker (dist/worker.mjs, `npm run start:worker`) with --once", () => {
  it("runs on plain node and does what the TypeScript worker does", async () => {
    // Built as `npm run build` builds it, into a directory of its own inside node_modules (the
    // bundle imports its packages from there), so the checkout's dist/ is left alone.
    await mkdir(path.join(root, "node_modules", ".cache"), { recursive: true });
    const outdir = await mkdtemp(path.join(root, "node_modules", ".cache", "built-worker-"));
    try {
      const [worker] = await buildTools({ outdir });
      await expectWorkerRunsCancelledOrdersJobs(() => runInRepository(process.execPath, [worker!, "--once"]));
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});

describe("npm run reconcile", () => {
  it("brings a quiet pending order in line with the sandbox, runs its jobs and exits 0", async () => {
    const { order } = await insertPendingOrder({ quantity: 1, stockLeft: 4 });
    const { referenceNumber } = await payClient().createPaymentOrder({
      externalTransactionId: order.externalTransactionId,
      clientId: order.clientId,
      name: "Café do Amboim 1 kg",
      amountAoa: order.amountAoa,
      image: "http://localhost:3000/products/cafe-amboim.svg",
      additionalInfo: "1× Café do Amboim 1 kg",
    });
    // Paid at the service, but its webhook never came.
    await suiteSandboxControl().call("POST", `/orders/${order.externalTransactionId}/confirm`, {
      delivery: "drop",
    });
    await client.$executeRaw`UPDATE orders SET reference_number = ${referenceNumber},
      updated_at = now() - interval '5 minutes' WHERE id = ${order.id}::uuid`;

    const run = await npmRun(["reconcile"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("checked 1 pending orders: 1 changed");
    expect(await client.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({
      status: "CON",
      finalizedAt: expect.any(Date),
    });
    const jobs = await client.job.findMany({
      where: { dedupeKey: { endsWith: `:${order.externalTransactionId}` } },
      select: { type: true, status: true },
      orderBy: { type: "asc" },
    });
    expect(jobs).toEqual([
      { type: "clear-cart", status: "DONE" },
      { type: "confirmation-mail", status: "DONE" },
      { type: "record-invoice", status: "DONE" },
    ]);
  });
});

describe("npm run catalogue:import and its built twin (dist/catalogue-import.mjs)", () => {
  /** A 4×3 PNG, the image file a CSV names beside it. */
  const PNG = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGOQzXeCIwacHAC6twmpGx4hjgAAAABJRU5ErkJggg==",
    "base64",
  );

  async function csvFolder(rows: string[]): Promise<{ dir: string; csv: string }> {
    const dir = await mkdtemp(path.join(root, "node_modules", ".cache", "catalogue-csv-"));
    await writeFile(path.join(dir, "foto.png"), PNG);
    const csv = path.join(dir, "catalogo.csv");
    // As a spreadsheet in pt-AO saves it: a BOM and semicolons.
    await writeFile(
      csv,
      `\uFEFFslug;name;description;price_aoa;stock;categories;images;image_alts\r\n${rows.join("\r\n")}\r\n`,
    );
    return { dir, csv };
  }

  it("imports a file with its images and categories, and a second run changes nothing", async () => {
    await mkdir(path.join(root, "node_modules", ".cache"), { recursive: true });
    const slug = `cli-${randomUUID().slice(0, 8)}`;
    const { dir, csv } = await csvFolder([
      `${slug};Sumo de múcua;Feito à mão.;1500;7;Bebidas > Sumos;foto.png;Garrafa de sumo`,
    ]);
    try {
      const dry = await npmRun(["catalogue:import", "--", csv, "--dry-run"]);
      expect(dry.code, dry.output).toBe(0);
      expect(await client.product.findUnique({ where: { slug } })).toBeNull();

      const first = await npmRun(["catalogue:import", "--", csv]);
      expect(first.code, first.output).toBe(0);
      const product = await client.product.findUniqueOrThrow({
        where: { slug },
        include: { gallery: true, categories: { include: { category: { include: { parent: true } } } } },
      });
      expect(product).toMatchObject({ name: "Sumo de múcua", priceAoa: 1500, stock: 7 });
      expect(product.imagePath).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
      expect(product.gallery.map((image) => image.alt)).toEqual(["Garrafa de sumo"]);
      expect(product.categories.map(({ category }) => `${category.parent?.name} > ${category.name}`)).toEqual([
        "Bebidas > Sumos",
      ]);

      // The bundle runs on plain node, as after `npm prune --omit=dev`.
      const outdir = await mkdtemp(path.join(root, "node_modules", ".cache", "built-tools-"));
      try {
        const built = (await buildTools({ outdir })).find((file) => file.endsWith("catalogue-import.mjs"))!;
        const again = await runInRepository(process.execPath, [built, csv]);
        expect(again.code, again.output).toBe(0);
        expect(again.output).toContain("1 unchanged");
      } finally {
        await rm(outdir, { recursive: true, force: true });
      }
      expect((await client.product.findUniqueOrThrow({ where: { slug } })).updatedAt).toEqual(product.updatedAt);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names every problem by line and column, writes nothing and exits 1", async () => {
    await mkdir(path.join(root, "node_modules", ".cache"), { recursive: true });
    const slug = `cli-${randomUUID().slice(0, 8)}`;
    const { dir, csv } = await csvFolder([
      `${slug};Bom;Bom.;1500;7;;foto.png;Foto`,
      `${slug}-b;Mau;Mau.;15,50;7;;foto.png;Foto`,
    ]);
    try {
      const run = await npmRun(["catalogue:import", "--", csv]);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(/line 3, price_aoa: /);
      expect(await client.product.findUnique({ where: { slug } })).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
