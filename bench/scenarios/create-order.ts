import { randomUUID } from "node:crypto";
import type pg from "pg";
import { readBody, sendJson } from "../lib/http";
import type {
  Answer,
  BaselineHandler,
  BenchRequest,
  PreparedRun,
  RunSetup,
  Scenario,
  ShopSettings,
} from "../lib/scenario";
import { waitUntilSteady } from "../lib/wait";

/**
 * POST /api/pay/create-order (contract 4.2 A) with a list of items, against the local sandbox
 * of the service (it runs in the bench process).
 *
 * The app: Next's router, the route handler (content type, capped body, zod), createOrder: one
 * Prisma transaction (read the products, reserve stock line by line, create the PEN order with
 * its lines), then createPaymentOrder at the sandbox through lib/pay (cached token, retries),
 * then the reference number stored, a log line, the JSON answer and the shopper cookie.
 *
 * The baseline does the same database and network work by hand: node:http, a hand check of
 * the body, a pg transaction with the same statements (SELECT the variants, whether any
 * delivery method is offered, lock the products, one conditional UPDATE of a variant's stock per
 * line in id order, INSERT the order, INSERT its lines, COMMIT), the same
 * createPaymentOrder call with fetch and a token fetched once, the same UPDATE of the
 * reference number, the same answer. It does not retry, validate as thoroughly or log.
 *
 * Each run gets its own products with a stock that never runs out, so runs do not share rows.
 */

const CREATE_ORDER_PATH = "/api/pay/create-order";
const PRODUCTS_PER_RUN = 10;
/** 2 500, 2 600, … kwanza: no order total is one of the sandbox's magic amounts (1001–1003). */
const priceOf = (index: number) => 2500 + 100 * index;
/** The CHECK allows any stock ≥ 0; this is near the integer column's maximum. */
const STOCK = 2_000_000_000;
/** Request i orders one of product i and two of product i + 3 (mod 10): 10 different carts, round. */
const linesOf = (index: number) => [
  { product: index % PRODUCTS_PER_RUN, quantity: 1 },
  { product: (index + 3) % PRODUCTS_PER_RUN, quantity: 2 },
];

interface Created {
  externalTransactionId: string;
  referenceNumber: string;
  amountAoa: number;
}

export const createOrderScenario: Scenario = {
  name: "create-order",
  summary: "POST /api/pay/create-order: 2 lines; transaction reserving stock, then createPaymentOrder at the sandbox",
  baseline: {
    method: "POST",
    path: CREATE_ORDER_PATH,
    handler: ({ database, shop }) => createOrderHandler(database, shop),
  },

  async prepare(run) {
    const products = await createProducts(run.database, run.tag);
    const requests = Array.from({ length: PRODUCTS_PER_RUN }, (_, index): BenchRequest => {
      const items = linesOf(index).map((line) => ({ productId: products[line.product]!, quantity: line.quantity }));
      return {
        method: "POST",
        path: CREATE_ORDER_PATH,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ items }),
      };
    });
    const expectedAmount = new Map(
      requests.map((request, index) => [
        request,
        linesOf(index).reduce((sum, line) => sum + priceOf(line.product) * line.quantity, 0),
      ]),
    );
    let sent = 0;
    const replies: { status: number; created?: Created; expectedAmount: number }[] = [];
    return {
      next: () => requests[sent++ % requests.length]!,
      answered(request, answer) {
        replies.push({
          status: answer.status,
          created: answer.status === 200 ? readCreated(answer.body) : undefined,
          expectedAmount: expectedAmount.get(request)!,
        });
      },
      verify: () => verifyOrders(run, products, sent, replies),
    } satisfies PreparedRun;
  },

  checkAnswers(answers) {
    const created: Record<string, Created> = {};
    for (const [target, answer] of Object.entries(answers) as [string, Answer][]) {
      const order = answer.status === 200 ? readCreated(answer.body) : undefined;
      if (!order) throw new Error(`${target} answered ${answer.status} ${answer.body.slice(0, 200)}`);
      created[target] = order;
    }
    const expected = linesOf(0).reduce((sum, line) => sum + priceOf(line.product) * line.quantity, 0);
    for (const [target, order] of Object.entries(created))
      if (order.amountAoa !== expected) throw new Error(`${target} charged ${order.amountAoa} AOA, not ${expected}`);
  },
};

function readCreated(body: string): Created | undefined {
  try {
    const value = JSON.parse(body) as Partial<Created>;
    const ok =
      typeof value.externalTransactionId === "string" &&
      /^order_[0-9a-f-]{36}$/.test(value.externalTransactionId) &&
      typeof value.referenceNumber === "string" &&
      value.referenceNumber !== "" &&
      Number.isInteger(value.amountAoa);
    return ok ? (value as Created) : undefined;
  } catch {
    return undefined;
  }
}

/** The run's products, in index order (their prices are {@link priceOf} the index). */
async function createProducts(database: pg.Pool, tag: string): Promise<string[]> {
  const { rows } = await database.query<{ id: string }>(
    `
WITH image AS (SELECT image_path FROM products ORDER BY slug LIMIT 1)
INSERT INTO products (slug, name, description, image_path, price_aoa, stock, updated_at)
SELECT 'bench-' || $1 || '-' || i, 'Produto de teste ' || i, 'Criado pelo benchmark', image.image_path,
       2500 + 100 * i, $2, now()
FROM generate_series(0, $3::int - 1) AS i, image
ORDER BY i
RETURNING id`,
    [tag.replace(/[^a-z0-9]+/gi, "-").toLowerCase(), STOCK, PRODUCTS_PER_RUN],
  );
  return rows.map((row) => row.id);
}

/**
 * Every 200 answer names an order that is in the database, PEN, with the reference number and
 * amount it answered; every order made from the run's products was answered (or was still in
 * flight when the load stopped); the stock taken from each product is exactly what those
 * orders' lines hold.
 */
async function verifyOrders(
  run: RunSetup,
  products: string[],
  sent: number,
  replies: { status: number; created?: Created; expectedAmount: number }[],
) {
  const { database } = run;
  const count = () =>
    database
      .query<{ count: number }>(
        `SELECT count(*)::int AS count FROM orders
         WHERE reference_number IS NOT NULL AND id IN (SELECT order_id FROM order_lines WHERE product_id = ANY($1::uuid[]))`,
        [products],
      )
      .then(({ rows }) => rows[0]?.count ?? 0);
  const settled = await waitUntilSteady(count);
  const problems: string[] = [];
  if (!settled.steady) problems.push("orders were still being created 15 s after the load stopped");

  const { rows: orders } = await database.query<{
    externalTransactionId: string;
    status: string;
    referenceNumber: string | null;
    amountAoa: number;
  }>(
    `SELECT external_transaction_id AS "externalTransactionId", status::text AS status,
            reference_number AS "referenceNumber", amount_aoa AS "amountAoa"
     FROM orders WHERE id IN (SELECT order_id FROM order_lines WHERE product_id = ANY($1::uuid[]))`,
    [products],
  );
  const { rows: stock } = await database.query<{ taken: number; inLines: number }>(
    `SELECT ($2::bigint * count(*) - sum(p.stock))::int AS taken,
            (SELECT COALESCE(sum(l.quantity), 0)::int FROM order_lines l JOIN orders o ON o.id = l.order_id
             WHERE l.product_id = ANY($1::uuid[]) AND o.status <> 'CAN') AS "inLines"
     FROM products p WHERE p.id = ANY($1::uuid[])`,
    [products, STOCK],
  );
  const byId = new Map(orders.map((order) => [order.externalTransactionId, order]));
  const answeredIds = new Set<string>();
  let wrong = 0;
  const statuses = new Map<string, number>();
  for (const reply of replies) {
    statuses.set(String(reply.status), (statuses.get(String(reply.status)) ?? 0) + 1);
    const order = reply.created && byId.get(reply.created.externalTransactionId);
    if (!reply.created || !order) {
      wrong++;
      continue;
    }
    answeredIds.add(reply.created.externalTransactionId);
    if (
      order.status !== "PEN" ||
      order.referenceNumber !== reply.created.referenceNumber ||
      order.amountAoa !== reply.created.amountAoa ||
      order.amountAoa !== reply.expectedAmount
    )
      wrong++;
  }
  const unanswered = sent - replies.length;
  const unansweredOrders = orders.filter((order) => !answeredIds.has(order.externalTransactionId));
  const complete = unansweredOrders.filter((order) => order.status === "PEN" && order.referenceNumber);
  const cancelled = orders.filter((order) => order.status === "CAN").length;
  if (wrong > 0) problems.push(`${wrong} answers are not a 200 naming a PEN order with that reference and amount`);
  if (unansweredOrders.length > unanswered)
    problems.push(`${unansweredOrders.length} orders nobody was told about, ${unanswered} requests unanswered`);
  if (complete.length !== unansweredOrders.length)
    problems.push(`${unansweredOrders.length - complete.length} unanswered orders left without a reference`);
  if (cancelled > 0) problems.push(`${cancelled} orders cancelled: the sandbox call failed`);
  const { taken = 0, inLines = 0 } = stock[0] ?? {};
  if (taken !== inLines) problems.push(`stock taken ${taken}, order lines hold ${inLines}`);

  return {
    summary: `${orders.length} orders for ${replies.length} answers, stock ${taken === inLines ? "exact" : "WRONG"}`,
    lines: [
      `${sent} requests sent, ${replies.length} answered (${[...statuses].map(([status, n]) => `${n} × ${status}`).join(", ")}), ` +
        `${unanswered} unanswered when the load stopped`,
      `orders: ${orders.length} = ${answeredIds.size} answered + ${complete.length} completed after the stop; ` +
        `each PEN with the answered reference number and amount: ${wrong === 0 ? "yes" : `no (${wrong} not)`}; cancelled: ${cancelled}`,
      `stock taken from the run's ${products.length} products: ${taken} units = ${inLines} in the orders' lines`,
    ],
    problems,
  };
}

// --- the baseline --------------------------------------------------------------------------

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function readItems(value: unknown): { productId: string; quantity: number }[] {
  const items = (value as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > 50) throw new Refusal(400, "invalid_request");
  for (const item of items as { productId?: unknown; quantity?: unknown }[]) {
    if (typeof item?.productId !== "string" || !UUID.test(item.productId)) throw new Refusal(400, "invalid_request");
    if (!Number.isInteger(item.quantity) || (item.quantity as number) < 1 || (item.quantity as number) > 99)
      throw new Refusal(400, "invalid_request");
  }
  return items as { productId: string; quantity: number }[];
}

function createOrderHandler(database: pg.Pool, shop: ShopSettings): BaselineHandler {
  const { pay } = shop;
  let token: Promise<string> | undefined;
  // Fetched once and kept, as the app's client caches it.
  const accessToken = () =>
    (token ??= fetch(`${pay.apiBaseUrl}/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${pay.clientId}:${pay.clientSecret}`).toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: "grant_type=client_credentials&validity_period=3600",
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(`POST /token answered ${response.status}`);
        return ((await response.json()) as { access_token: string }).access_token;
      })
      .catch((error: unknown) => {
        token = undefined;
        throw error;
      }));

  return async (request, response) => {
    try {
      if (!/^application\/json\s*(;|$)/i.test(request.headers["content-type"] ?? ""))
        throw new Refusal(415, "unsupported_media_type");
      const raw = await readBody(request, 16 * 1024);
      if (!raw) throw new Refusal(413, "payload_too_large");
      let items;
      try {
        items = readItems(JSON.parse(raw.toString("utf8")));
      } catch (error) {
        throw error instanceof Refusal ? error : new Refusal(400, "invalid_json");
      }
      const clientId = `shopper_${randomUUID()}`;
      const order = await reserve(database, items, clientId);

      const answer = await fetch(`${pay.apiBaseUrl}/paypartner/createPaymentOrder`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${await accessToken()}`,
          "Accept-Language": pay.lang,
          Accept: "application/json",
          "Content-Type": "application/json; charset=utf-8",
          "X-Request-Id": randomUUID(),
        },
        body: JSON.stringify({
          externalTransactionId: order.externalTransactionId,
          clientId,
          applicationUUID: pay.applicationUUID,
          name: `${order.lines[0]!.name} e mais ${order.lines.length - 1} artigo`,
          image: new URL(order.lines[0]!.imagePath, `${shop.appUrl}/`).href,
          amount: order.amountAoa,
          quantity: 1,
          additionalInfo: order.lines.map((line) => `${line.quantity}× ${line.name}`).join("; "),
        }),
      });
      if (!answer.ok) throw new Refusal(502, "payment_service_error");
      const { referenceNumber } = ((await answer.json()) as { data: { referenceNumber: string } }).data;
      await database.query("UPDATE orders SET reference_number = $1, updated_at = now() WHERE id = $2", [
        referenceNumber,
        order.id,
      ]);
      sendJson(
        response,
        200,
        { externalTransactionId: order.externalTransactionId, referenceNumber, amountAoa: order.amountAoa },
        { "Set-Cookie": `shopper_id=${clientId}; Path=/; Max-Age=31536000; HttpOnly; SameSite=lax` },
      );
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      sendJson(response, error.status, { error: { code: error.code, message: error.code } });
    }
  };
}

interface Reserved {
  id: string;
  externalTransactionId: string;
  amountAoa: number;
  lines: { name: string; imagePath: string; quantity: number }[];
}

/** The app's transaction (lib/checkout/reserve.ts reserveOrder), statement for statement. */
async function reserve(
  database: pg.Pool,
  items: { productId: string; quantity: number }[],
  clientId: string,
): Promise<Reserved> {
  const client = await database.connect();
  try {
    await client.query("BEGIN");
    // The product's one variant (no variantId in the bench's items: products without options).
    const { rows: products } = await client.query<{
      id: string;
      variant_id: string;
      name: string;
      price_aoa: number;
      image_path: string;
      sku: string | null;
    }>(
      `SELECT p.id, v.id AS variant_id, p.name, v.price_aoa, coalesce(v.image_path, p.image_path) AS image_path, v.sku
       FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE v.product_id = ANY($1::uuid[]) AND v.archived_at IS NULL AND p.archived_at IS NULL`,
      [items.map((item) => item.productId)],
    );
    const byId = new Map(products.map((product) => [product.id, product]));
    if (items.some((item) => !byId.has(item.productId))) throw new Refusal(422, "unknown_product");
    // Whether the shop offers any delivery method, for an order that names none (the app's check).
    const { rows: offered } = await client.query<{ any: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM delivery_zones WHERE active) OR EXISTS (SELECT 1 FROM pickup_points WHERE active) AS any",
    );
    if (offered[0]?.any) throw new Refusal(400, "delivery_required");
    // lib/catalog/stock.ts: the products' rows first, then one conditional update of every variant.
    await client.query("SELECT id FROM products WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE", [
      items.map((item) => item.productId),
    ]);
    const reserved = await client.query(
      `UPDATE product_variants v SET stock = v.stock - line.quantity, updated_at = now()
       FROM unnest($1::uuid[], $2::int[]) AS line (id, quantity)
       WHERE v.id = line.id AND v.stock >= line.quantity`,
      [items.map((item) => byId.get(item.productId)!.variant_id), items.map((item) => item.quantity)],
    );
    if (reserved.rowCount !== items.length) throw new Refusal(409, "out_of_stock");
    const lines = items.map((item) => ({ ...item, product: byId.get(item.productId)! }));
    const amountAoa = lines.reduce((sum, line) => sum + line.product.price_aoa * line.quantity, 0);
    const externalTransactionId = `order_${randomUUID()}`;
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO orders (external_transaction_id, status, amount_aoa, client_id, updated_at)
       VALUES ($1, 'PEN', $2, $3, now()) RETURNING id`,
      [externalTransactionId, amountAoa, clientId],
    );
    const id = rows[0]!.id;
    await client.query(
      `INSERT INTO order_lines (order_id, product_id, variant_id, sku, product_name, unit_price_aoa, quantity)
       SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::int[], $7::int[])`,
      [
        id,
        lines.map((line) => line.productId),
        lines.map((line) => line.product.variant_id),
        lines.map((line) => line.product.sku),
        lines.map((line) => line.product.name),
        lines.map((line) => line.product.price_aoa),
        lines.map((line) => line.quantity),
      ],
    );
    await client.query("COMMIT");
    return {
      id,
      externalTransactionId,
      amountAoa,
      lines: lines.map((line) => ({
        name: line.product.name,
        imagePath: line.product.image_path,
        quantity: line.quantity,
      })),
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
