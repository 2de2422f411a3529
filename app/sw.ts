/// <reference lib="webworker" />
/**
 * The shop's service worker, on Serwist: bundled by app/serwist/[path]/route.ts into
 * /serwist/sw.js when `next build` prerenders that route, and registered by the shopper's order
 * pages once loaded (components/offline/service-worker-registration.tsx). What it keeps and why: lib/offline/offline-rules.ts
 * and docs/storefront.md#offline.
 *
 * - Precached: the offline page alone (and the built files it names), so the install costs one
 *   small page.
 * - The shop's built files (/_next/static/, named by their content): cache first, one cache per build.
 * - The shopper's order pages (success, pending, order): network first, a copy kept for
 *   ORDER_PAGE_KEPT_DAYS, with the built files it names, so it opens offline as it was.
 * - Every other navigation: the network only, and the offline page when there is none. The back
 *   office, the API and every other request are never answered from a cache.
 */
import {
  CacheExpiration,
  CacheFirst,
  NetworkFirst,
  NetworkOnly,
  Serwist,
  ExpirationPlugin,
  type PrecacheEntry,
  type SerwistPlugin,
} from "serwist";
import {
  isOrderPageRequest,
  isShopCache,
  isStaticFile,
  mayKeepPage,
  OFFLINE_PAGE_PATH,
  ORDER_PAGE_MAX_AGE_SECONDS,
  ORDER_PAGE_NETWORK_TIMEOUT_SECONDS,
  ORDER_PAGES_CACHE,
  ORDER_PAGES_MAX,
  staticFilesCache,
  staticFilesOf,
} from "@/lib/offline/offline-rules";

declare const self: ServiceWorkerGlobalScope & {
  /** The precache list, written in by @serwist/turbopack: the offline page, revisioned by SHOP_BUILD. */
  __SW_MANIFEST: (PrecacheEntry | string)[] | undefined;
};
/** This build's id, defined by app/serwist/[path]/route.ts: a new build has new caches. */
declare const SHOP_BUILD: string;

const STATIC_FILES_CACHE = staticFilesCache(SHOP_BUILD);
const orderPagesExpiration = { maxEntries: ORDER_PAGES_MAX, maxAgeSeconds: ORDER_PAGE_MAX_AGE_SECONDS };

/**
 * Keeps the built files a page's HTML names in this build's cache: taken from any of the
 * worker's caches that has them (an order page kept under an earlier build needs that build's
 * files), else from the network (the browser's HTTP cache, mostly: the page has just loaded them).
 */
async function keepStaticFilesOf(html: string): Promise<void> {
  const cache = await caches.open(STATIC_FILES_CACHE);
  await Promise.all(
    staticFilesOf(html).map(async (path) => {
      if (await cache.match(path)) return;
      const response = (await caches.match(path)) ?? (await fetch(path).catch(() => undefined));
      if (response?.ok) await cache.put(path, response);
    }),
  );
}

/** A kept page opens offline as it looked: its built files are kept with it. */
const keepItsFiles: SerwistPlugin = {
  async cacheDidUpdate({ newResponse }) {
    await keepStaticFilesOf(await newResponse.text());
  },
};

/** Only what lib/offline/offline-rules.ts allows: a whole HTML page the server did not mark no-store. */
const onlyKeepablePages: SerwistPlugin = {
  cacheWillUpdate: async ({ response }) => (mayKeepPage(response) ? response : null),
};

const isNavigation = ({ request }: { request: Request }) => request.mode === "navigate";

const serwist = new Serwist({
  precacheEntries: self.__SW_MANIFEST,
  precacheOptions: { plugins: [keepItsFiles] },
  skipWaiting: true,
  clientsClaim: true,
  navigationPreload: true,
  runtimeCaching: [
    {
      matcher: ({ url }) => isStaticFile(url, self.location.origin),
      handler: new CacheFirst({ cacheName: STATIC_FILES_CACHE }),
    },
    {
      // A navigation, or the page asking for one it opened without the worker (see
      // components/offline/service-worker-registration.tsx).
      matcher: ({ request, url }) => isOrderPageRequest(request, url, self.location.origin),
      handler: new NetworkFirst({
        cacheName: ORDER_PAGES_CACHE,
        networkTimeoutSeconds: ORDER_PAGE_NETWORK_TIMEOUT_SECONDS,
        plugins: [
          onlyKeepablePages,
          new ExpirationPlugin({ ...orderPagesExpiration, purgeOnQuotaError: true }),
          keepItsFiles,
        ],
      }),
    },
    // Every other page (the back office's included): never from a cache, so that offline it
    // is the offline page, not an old copy of someone's data.
    { matcher: isNavigation, handler: new NetworkOnly() },
  ],
  fallbacks: { entries: [{ url: OFFLINE_PAGE_PATH, matcher: isNavigation }] },
});

/**
 * A new build replaces the old caches: the order pages past their time go, those still kept get
 * their built files copied into this build's cache, then every other cache of the shop's is deleted.
 */
async function replaceOldCaches(): Promise<void> {
  await new CacheExpiration(ORDER_PAGES_CACHE, orderPagesExpiration).expireEntries();
  const orderPages = await caches.open(ORDER_PAGES_CACHE);
  for (const request of await orderPages.keys()) {
    const page = await orderPages.match(request);
    if (page) await keepStaticFilesOf(await page.text());
  }
  const current = new Set([STATIC_FILES_CACHE, ORDER_PAGES_CACHE]);
  for (const name of await caches.keys()) {
    if (isShopCache(name) && !current.has(name)) await caches.delete(name);
  }
}

self.addEventListener("activate", (event) => event.waitUntil(replaceOldCaches()));
serwist.addEventListeners();
