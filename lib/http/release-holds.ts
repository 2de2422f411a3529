import "server-only";
import { catalogChanged } from "../catalog/cached-pages";
import { db } from "../db/client";
import { runDueJobs } from "../jobs/runner";
import { consoleLogger } from "../log";
import { releaseExpiredHolds } from "../orders/holds";
import { payClient } from "../orders/pay-client";

/**
 * What a shopper's add to the cart does first (the cart's own add, "Comprar de novo"): units held
 * by orders nobody paid in time go back on sale, asking the service once, and the cached pages
 * that show their stock are renewed when any did.
 */
export async function releaseHoldsBeforeAdding(variantIds: string[]): Promise<number> {
  const released = await releaseExpiredHolds(variantIds, {
    db: db(),
    pay: payClient(),
    log: consoleLogger,
    runJobsNow: (ids) => runDueJobs({ ids }),
  });
  if (released > 0) catalogChanged();
  return released;
}
