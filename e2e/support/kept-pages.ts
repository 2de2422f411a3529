import type { Page } from "@playwright/test";
import { ORDER_PAGES_CACHE } from "../../lib/offline/offline-rules";

/** What the shop's service worker keeps, read from the page (its caches are the origin's). */

/** Whether the worker has kept the page at `path` in its order pages' cache. */
export const keeps = (page: Page, path: string) =>
  page.evaluate(
    async ([cacheName, kept]) => Boolean(await (await caches.open(cacheName!)).match(kept!)),
    [ORDER_PAGES_CACHE, path],
  );

/** Every address in every cache of the worker, as seen from the page. */
export const keptUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });
