import "server-only";
import { Prisma } from "../generated/prisma/client";
import { DAY_MS, luandaDayStart } from "../luanda-time";
import { checkoutDaysSql, luandaDay, paidDaysSql, salesDaysSql, type DashboardRunner } from "./dashboard-sql-admin";

/**
 * The dashboard's kept days: what its day statements (lib/dashboard/dashboard-sql-admin.ts) found
 * for each closed Luanda day, in dashboard_days and its three tables, so a year's dashboard sums
 * a few rows a day instead of reading every order and line of the year. A day is computed the
 * first time a dashboard reads it, and again after any of its orders changes: the keeping looks
 * for orders changed since it last looked (their updated_at, which every insert, status change
 * and resolution sets) and forgets their days, created and paid. Shop-wide, shared by every
 * instance: one keeping at a time, in one transaction.
 */

/** Sends one statement and gives its rows. */
export type RunSql = <T = unknown>(sql: Prisma.Sql) => Promise<T[]>;
/** Runs `work` in one transaction, its statements sent through the RunSql it is given. */
export type InTransaction = <R>(work: (run: RunSql) => Promise<R>) => Promise<R>;

/**
 * A change is looked for again this far before the last keeping: a transaction still open when
 * that keeping read the orders committed its updated_at (its own start) later, and rows that
 * Prisma updates take updated_at from the app's clock, not the database's.
 */
const LOOK_BACK = "2 minutes";
/** The first keeping of a year of orders reads them all: longer than the sessions' own limits. */
const KEEPING_LIMIT = "60s";

/** A runner's transaction (Prisma's or pg's) as an {@link InTransaction}. */
export function runnerTransaction(db: Pick<DashboardRunner, "$transaction">): InTransaction {
  return (work) =>
    db.$transaction((tx) => work((sql) => tx.$queryRaw(sql)), {
      // The limits are the statements' own (KEEPING_LIMIT); Prisma's default 5 s would cut the first keeping short
      // (pg's transactions have no limit of their own).
      maxWait: 10_000,
      timeout: 120_000,
    });
}

/**
 * Makes sure the days [from, to) (Luanda dates, all closed) are kept and up to date: forgets the
 * days of the orders changed since the last keeping, then computes the days missing.
 */
export async function keepDashboardDays(
  inTransaction: InTransaction,
  days: { from: string; to: string },
): Promise<void> {
  if (days.to <= days.from) return;
  await inTransaction(async (run) => {
    await run(
      Prisma.sql`SELECT set_config('lock_timeout', ${KEEPING_LIMIT}, true), set_config('statement_timeout', ${KEEPING_LIMIT}, true)`,
    );
    // The one row is the keeping's lock: a second keeping waits here, then finds the days kept.
    await run(Prisma.sql`
INSERT INTO dashboard_rollup (id) VALUES (1)
ON CONFLICT (id) DO UPDATE SET id = EXCLUDED.id
RETURNING folded_until`);
    await run(Prisma.sql`
DELETE FROM dashboard_days d
WHERE d.day IN (
  SELECT changed.day
  FROM orders o
  CROSS JOIN LATERAL (VALUES (${luandaDay("o.created_at")}), (${luandaDay("o.finalized_at")})) changed(day)
  -- Every status, so the (status, updated_at) index finds the changed rows.
  WHERE o.status = ANY (enum_range(NULL::"OrderStatus"))
    AND o.updated_at > (SELECT folded_until - ${LOOK_BACK}::interval FROM dashboard_rollup WHERE id = 1)
)`);
    await run(Prisma.sql`UPDATE dashboard_rollup SET folded_until = now() AT TIME ZONE 'UTC' WHERE id = 1`);
    const missing = (
      await run<{ day: string }>(Prisma.sql`
SELECT to_char(wanted.day, 'YYYY-MM-DD') AS day
FROM generate_series(${days.from}::date, ${days.to}::date - 1, interval '1 day') AS wanted(day)
WHERE NOT EXISTS (SELECT 1 FROM dashboard_days d WHERE d.day = wanted.day::date)
ORDER BY 1`)
    ).map((row) => row.day);
    if (missing.length === 0) return;
    const start = new Date(luandaDayStart(missing[0]!));
    const end = new Date(luandaDayStart(missing.at(-1)!) + DAY_MS);
    const isMissing = Prisma.sql`computed.day = ANY (${missing}::date[])`;
    await run(Prisma.sql`INSERT INTO dashboard_days (day) SELECT unnest(${missing}::date[])`);
    await run(Prisma.sql`
INSERT INTO dashboard_day_paid (day, panel, key, detail, orders, amount_aoa, discount_aoa, fees_aoa)
SELECT * FROM (${paidDaysSql(start, end)}) computed WHERE ${isMissing}`);
    await run(Prisma.sql`
INSERT INTO dashboard_day_checkouts (day, checkouts, paid, service_cancelled, expired, pending, "references", references_paid)
SELECT * FROM (${checkoutDaysSql(start, end)}) computed WHERE ${isMissing}`);
    await run(Prisma.sql`
INSERT INTO dashboard_day_sales (day, key, units, revenue_aoa)
SELECT * FROM (${salesDaysSql(start, end)}) computed WHERE ${isMissing}`);
  });
}
