import type { ImageStore } from "./store";

/**
 * The orphan images' sweep (./store.ts, deleteOrphans): images that no product, variant or
 * gallery names once they are a day old. They come from images replaced or removed in the back
 * office or by an import, and, with a store outside the database, from changes refused after
 * their upload. Bounded, so that a serverless function is never cut off in the middle: the
 * worker runs it every hour, `npm run reconcile` and the reconcile cron on each run; what is
 * left over goes on the next one.
 *
 * The day of grace keeps an image a page cached a moment ago still shows, and an upload in
 * progress with a store that cannot take part in its transaction.
 */

export const ORPHAN_IMAGE_GRACE_MS = 24 * 60 * 60 * 1000;
export const ORPHAN_IMAGE_SWEEP_LIMIT = 200;

/** Deletes up to ORPHAN_IMAGE_SWEEP_LIMIT orphans older than the grace; answers how many. */
export function sweepOrphanImages(images: ImageStore, now: number = Date.now()): Promise<number> {
  return images.deleteOrphans({ storedBefore: new Date(now - ORPHAN_IMAGE_GRACE_MS), limit: ORPHAN_IMAGE_SWEEP_LIMIT });
}
