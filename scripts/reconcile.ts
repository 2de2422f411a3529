// `npm run reconcile`: one reconcile sweep — pending orders whose stock hold ran out are ended,
// and the orders whose check is due on the back-off (lib/orders/check-schedule.ts) are checked
// with the service, its answer applied through the order state machine (lib/orders/reconcile.ts)
// — then the jobs it enqueued are run.
// Loads .env files as `next start` does; schedule it (cron, systemd timer) on a server host.
import nextEnv from "@next/env";
import { db } from "../lib/db/client";
import { EnvError } from "../lib/env";
import { runDueJobs } from "../lib/jobs/runner";
import { consoleLogger, redactText } from "../lib/log";
import { reconcilePendingOrders } from "../lib/orders/reconcile";
import { payClient } from "../lib/orders/pay-client";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => {}, error: console.error });
try {
  const summary = await reconcilePendingOrders({
    db: db(),
    pay: payClient(),
    log: consoleLogger,
  });
  const jobs = await runDueJobs({});
  console.log(
    `[reconcile] checked ${summary.checked} pending orders: ${summary.transitioned} changed, ` +
      `${summary.abandoned} abandoned, ${summary.holdsExpired} holds expired, ` +
      `${summary.paidAfterCancel} paid after cancel, ${summary.failed} not answered` +
      `${summary.stoppedEarly ? ` (stopped early: ${summary.stoppedEarly})` : ""}; jobs run: ${JSON.stringify(jobs)}`,
  );
  await db().$disconnect();
} catch (error) {
  // An error message may name an order or a shopper: lib/log.ts keeps them out.
  console.error(
    `[reconcile] ${redactText(error instanceof EnvError || error instanceof Error ? error.message : String(error))}`,
  );
  process.exit(1);
}
