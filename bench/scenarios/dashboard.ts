import type pg from "pg";
import { readDashboard, type Dashboard } from "../../lib/dashboard/dashboard-admin";
import { keepDashboardDays, type InTransaction } from "../../lib/dashboard/dashboard-days-admin";
import { dashboardStatements, keptDays, type DashboardRows } from "../../lib/dashboard/dashboard-sql-admin";
import { namedPeriod } from "../../lib/dashboard/period";
import { periodQuery } from "../../lib/dashboard/period-names";
import { parsePeriod } from "../../lib/dashboard/period-query";
import { luandaDate } from "../../lib/luanda-time";
import { formatAoa } from "../../lib/money";
import { sendJson } from "../lib/http";
import type { BaselineHandler, Scenario, ShopSettings } from "../lib/scenario";

/**
 * GET /admin, signed in: the back office's home with the owner's dashboard for the last 30 days
 * (`dashboard`) or the last 365 (`dashboard-year`), over 100 000 orders of the past year (paid,
 * cancelled by the service, expired references, failed or abandoned, pending, a few paid after
 * cancel; one to three lines of the demo catalogue's variants; two promo codes; pickup or five
 * delivery zones; a refund of one paid order in fifty, and of one payment after cancel in two),
 * written once per run by one set-based statement each for the orders, their lines and the
 * refunds, then `VACUUM ANALYZE` (what autovacuum would soon do; the dashboard's indexes are read
 * alone only where the visibility map says so).
 *
 * The app: Next's router, the admin guard (the session's row), the page's reads (the attention
 * list, and the data version that says whether the home's totals and
 * lib/dashboard/dashboard-sql-admin.ts's five statements, reused while it stays, must run again)
 * and the HTML of the figures, the attention list and the pictures' data (the pictures are drawn
 * in the browser). The baseline: the same keeping of the closed days (lib/dashboard/dashboard-days-admin.ts,
 * in a transaction of pg's) and the dashboard's same five statements (dashboardStatements builds
 * them without running them) through `pg`, at once, and the dashboard as JSON.
 */

export const DASHBOARD_ORDERS = 100_000;
/** LOW_STOCK_THRESHOLD's default, which the bench's shop keeps. */
const LOW_STOCK_THRESHOLD = 5;
const CLIENT_PREFIX = "bench-dashboard-";

/** The orders of the past year, written once for every dashboard scenario of the run. */
async function ensureDashboardOrders(database: pg.Pool): Promise<void> {
  const [{ count }] = (
    await database.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM orders WHERE client_id LIKE '${CLIENT_PREFIX}%'`,
    )
  ).rows as [{ count: number }];
  if (count >= DASHBOARD_ORDERS) return;
  const client = await database.connect();
  try {
    await client.query("BEGIN");
    // The demo catalogue's variants, numbered; two made low and one sold out for the stock panel.
    await client.query(`CREATE TEMP TABLE bench_variants ON COMMIT DROP AS
      SELECT (row_number() OVER (ORDER BY v.id) - 1)::int AS n, v.id, v.product_id, p.name, v.price_aoa
      FROM product_variants v JOIN products p ON p.id = v.product_id
      WHERE v.archived_at IS NULL AND p.archived_at IS NULL`);
    await client.query(`UPDATE product_variants SET stock = CASE WHEN id = (SELECT id FROM bench_variants WHERE n = 0) THEN 0 ELSE 3 END
      WHERE id IN (SELECT id FROM bench_variants WHERE n < 3)`);
    // Order i: 1 + i % 3 lines, line k of variant (i·31 + k·17) mod n, 1 + (i + k) % 3 units; one
    // in ten with BEMVINDO (10 % of each line), one in 25 with NATAL (500 Kz off the first line);
    // a third picked up, the rest delivered to one of five zones for 1 500 Kz. Outcomes by i % 100:
    // 70 % paid, 10 % cancelled by the service, 10 % expired references, 5 % failed or abandoned,
    // 5 % pending; one in a thousand paid after cancel. Spread evenly over the 365 days before now.
    await client.query(
      `INSERT INTO orders (external_transaction_id, status, amount_aoa, subtotal_aoa, discount_aoa, delivery_fee_aoa,
         delivery_method, delivery_zone_name, promo_code, payment_reference, cancel_reason, client_id, created_at,
         finalized_at, paid_after_cancel_at, attention_reason, attention_at, hold_expires_at, updated_at)
       SELECT 'order_' || gen_random_uuid(), o.status::"OrderStatus", o.subtotal - o.discount + o.fee, o.subtotal,
              o.discount, o.fee, o.method, o.zone, o.promo, o.reference, o.reason, $1::text || o.i, o.created,
              CASE WHEN o.status = 'PEN' THEN NULL ELSE o.created + (o.i % 120) * interval '1 minute' END,
              o.late, CASE WHEN o.late IS NOT NULL THEN 'paid_after_cancel' END, o.late,
              o.created + interval '1 day',
              -- Last changed when it was paid or cancelled (or paid after that), as a year of a shop's orders were.
              GREATEST(o.created, CASE WHEN o.status = 'PEN' THEN NULL ELSE o.created + (o.i % 120) * interval '1 minute' END, o.late)
       FROM (
         SELECT s.i, lines.subtotal, lines.discount,
                CASE WHEN s.i % 3 = 0 THEN 0 ELSE 1500 END AS fee,
                CASE WHEN s.i % 3 = 0 THEN 'pickup' ELSE 'delivery' END AS method,
                CASE WHEN s.i % 3 = 0 THEN NULL
                     ELSE (ARRAY['Luanda Centro', 'Talatona', 'Viana', 'Cacuaco', 'Benfica'])[1 + s.i % 5] END AS zone,
                CASE WHEN s.i % 10 = 0 THEN 'BEMVINDO' WHEN s.i % 25 = 1 THEN 'NATAL' END AS promo,
                CASE WHEN s.i % 5 < 2 OR s.i % 100 BETWEEN 80 AND 89 THEN 'REF' || s.i END AS reference,
                CASE WHEN s.i % 100 < 70 THEN 'CON' WHEN s.i % 100 < 95 THEN 'CAN' ELSE 'PEN' END AS status,
                CASE WHEN s.i % 100 BETWEEN 80 AND 89 THEN 'hold_expired'
                     WHEN s.i % 100 BETWEEN 90 AND 92 THEN 'abandoned'
                     WHEN s.i % 100 BETWEEN 93 AND 94 THEN 'service_unavailable' END AS reason,
                CASE WHEN s.i % 1000 = 985 THEN now() - s.i * interval '315 seconds' + interval '3 hours' END AS late,
                now() - s.i * interval '315 seconds' AS created
         FROM generate_series(1, $2::int) AS s(i)
         CROSS JOIN LATERAL (
           SELECT sum(v.price_aoa * (1 + (s.i + k) % 3))::int AS subtotal,
                  sum(CASE WHEN s.i % 10 = 0 THEN (v.price_aoa * (1 + (s.i + k) % 3)) / 10
                           WHEN s.i % 25 = 1 AND k = 1 THEN LEAST(500, v.price_aoa) ELSE 0 END)::int AS discount
           FROM generate_series(1, 1 + s.i % 3) AS k
           JOIN bench_variants v ON v.n = (s.i * 31 + k * 17) % (SELECT count(*) FROM bench_variants)
         ) lines
       ) o`,
      [CLIENT_PREFIX, DASHBOARD_ORDERS],
    );
    await client.query(
      `INSERT INTO order_lines (order_id, product_id, variant_id, product_name, unit_price_aoa, quantity, discount_aoa)
       SELECT o.id, v.product_id, v.id, v.name, v.price_aoa, 1 + (x.i + k) % 3,
              CASE WHEN x.i % 10 = 0 THEN (v.price_aoa * (1 + (x.i + k) % 3)) / 10
                   WHEN x.i % 25 = 1 AND k = 1 THEN LEAST(500, v.price_aoa) ELSE 0 END
       FROM orders o
       CROSS JOIN LATERAL (SELECT substr(o.client_id, length($1::text) + 1)::int AS i) x
       CROSS JOIN LATERAL generate_series(1, 1 + x.i % 3) AS k
       JOIN bench_variants v ON v.n = (x.i * 31 + k * 17) % (SELECT count(*) FROM bench_variants)
       WHERE o.client_id LIKE $1::text || '%'`,
      [CLIENT_PREFIX],
    );
    // A fifth of the amount of one paid order in fifty given back a day and a half after it was
    // paid, and the whole of one payment after cancel in two, by a person of the shop; numbered on
    // from the refund counter, which is then moved past them.
    await client.query(`INSERT INTO staff (id, name, email, role)
      VALUES ('bench-refunds', 'Bench', 'bench-refunds@shop.example', 'staff') ON CONFLICT (id) DO NOTHING`);
    await client.query(
      `INSERT INTO refunds (number, order_id, amount_aoa, method, refunded_at, staff_id, staff_name)
       SELECT (SELECT last_number FROM refund_counter WHERE id = 1) + row_number() OVER (ORDER BY r.at, r.id),
              r.id, r.amount, 'bank_transfer', r.at, 'bench-refunds', 'Bench'
       FROM (
         SELECT o.id, CASE WHEN o.status = 'CON' THEN o.amount_aoa / 5 ELSE o.amount_aoa END AS amount,
                LEAST(COALESCE(o.paid_after_cancel_at, o.finalized_at) + interval '36 hours', now() - interval '1 minute') AS at
         FROM orders o CROSS JOIN LATERAL (SELECT substr(o.client_id, length($1::text) + 1)::int AS i) x
         WHERE o.client_id LIKE $1::text || '%'
           AND ((o.status = 'CON' AND x.i % 50 = 3) OR (o.paid_after_cancel_at IS NOT NULL AND x.i % 2000 = 985))
       ) r`,
      [CLIENT_PREFIX],
    );
    await client.query("UPDATE refund_counter SET last_number = (SELECT max(number) FROM refunds) WHERE id = 1");
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
  await database.query("VACUUM ANALYZE orders, order_lines, product_variants, refunds");
}

/** The 365 days that end today in Luanda, as the home's custom range. */
function yearQuery(): string {
  const today = namedPeriod("today", new Date());
  const from = luandaDate(new Date(today.start.getTime() - 364 * 86_400_000));
  return periodQuery({ kind: "custom", from, to: today.to });
}

/** The session cookie of one sign-in, shared by every run (a session lasts eight hours). */
let session: Promise<string> | undefined;
async function signIn(shop: ShopSettings): Promise<string> {
  const response = await fetch(`${shop.appUrl}/api/admin/session`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: shop.appUrl },
    body: JSON.stringify({ password: shop.adminPassword }),
    redirect: "manual",
  });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith("admin_session="));
  if (!cookie) throw new Error(`the bench could not sign in to the back office: ${response.status}`);
  return cookie.split(";")[0]!;
}

interface Statement {
  text: string;
  values: unknown[];
}

/** One statement through pg; dates as UTC ISO text: the columns are timestamps without a zone holding UTC. */
async function runOn<T extends pg.QueryResultRow>(client: pg.Pool | pg.PoolClient, sql: Statement): Promise<T[]> {
  const values = sql.values.map((value) => (value instanceof Date ? value.toISOString() : value));
  return (await client.query<T>(sql.text, values)).rows;
}

/** A transaction of pg's, as the keeping of the days takes one. */
const pgTransaction =
  (database: pg.Pool): InTransaction =>
  async (work) => {
    const client = await database.connect();
    try {
      await client.query("BEGIN");
      const result = await work(<T>(sql: Statement) => runOn(client, sql) as Promise<T[]>);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  };

/** The baseline: the days kept, then the dashboard's statements through pg, at once, and the dashboard as JSON. */
const dashboardJson =
  (database: pg.Pool): BaselineHandler =>
  async (request, response) => {
    const params = Object.fromEntries(new URL(request.url ?? "/", "http://baseline").searchParams);
    const { period } = parsePeriod(params);
    const today = luandaDate(new Date());
    const run = (sql: Statement) => runOn(database, sql);
    await keepDashboardDays(pgTransaction(database), keptDays(period, today));
    const statements = dashboardStatements(period, LOW_STOCK_THRESHOLD, today);
    const [paid, checkouts, sales, paidAfterCancel, refunds] = await Promise.all([
      run(statements.paid),
      run(statements.checkouts),
      run(statements.sales),
      run(statements.paidAfterCancel),
      run(statements.refunds),
    ]);
    const rows = { paid, checkouts, sales, paidAfterCancel, refunds } as unknown as DashboardRows;
    sendJson(response, 200, readDashboard(period, LOW_STOCK_THRESHOLD, rows));
  };

function dashboardScenario(name: string, summary: string, query: () => string): Scenario {
  return {
    name,
    summary,
    baseline: { method: "GET", path: "/dashboard", handler: ({ database }) => dashboardJson(database) },
    setup: ensureDashboardOrders,
    // Its goal is stated at 10 connections as fast as answers come (the throughput run).
    fixedRate: 20,
    async prepare({ target, shop }) {
      if (target === "baseline") return { next: () => ({ method: "GET", path: `/dashboard?${query()}` }) };
      session ??= signIn(shop);
      const cookie = await session;
      const request = {
        method: "GET" as const,
        path: `/admin?${query()}`,
        headers: { Cookie: cookie, Accept: "text/html" },
      };
      return { next: () => request };
    },
    checkAnswers({ app, baseline }) {
      if (app.status !== 200 || !app.contentType?.startsWith("text/html"))
        throw new Error(`the app answered ${app.status} ${app.contentType}: ${app.body.slice(0, 200)}`);
      if (baseline?.status !== 200) throw new Error(`the baseline answered ${baseline?.status}: ${baseline?.body}`);
      const expected = JSON.parse(baseline.body) as Dashboard;
      const shown = (testId: string) =>
        new RegExp(`data-testid="dashboard-figure-${testId}"[^>]*>([^<]*)<`).exec(app.body)?.[1];
      const pairs = [
        ["revenue", formatAoa(expected.figures.revenueAoa.current)],
        ["refunds", formatAoa(expected.figures.refundsAoa.current)],
        ["net-revenue", formatAoa(expected.figures.netRevenueAoa.current)],
        ["paid-orders", new Intl.NumberFormat("pt-AO").format(expected.figures.paidOrders.current)],
        ["checkouts", new Intl.NumberFormat("pt-AO").format(expected.figures.checkouts.current)],
      ] as const;
      for (const [testId, value] of pairs) {
        if (shown(testId) !== value)
          throw new Error(`the app shows ${testId} ${JSON.stringify(shown(testId))}, the baseline computed ${value}`);
      }
      if (expected.figures.paidOrders.current === 0) throw new Error("the period holds no paid order: seed missing?");
      if (expected.figures.refundsAoa.current === 0) throw new Error("the period holds no refund: seed missing?");
    },
  };
}

export const dashboardMonthScenario = dashboardScenario(
  "dashboard",
  "GET /admin?period=30d signed in: the home with the dashboard of the last 30 days over 100 000 orders",
  () => "period=30d",
);

export const dashboardYearScenario = dashboardScenario(
  "dashboard-year",
  "GET /admin?period=custom (365 days) signed in: the dashboard of the whole year over 100 000 orders",
  yearQuery,
);
