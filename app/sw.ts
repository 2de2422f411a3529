/// <reference lib="webworker" />
/**
 * The shop's service worker, on Serwist: bundled by app/serwist/[path]/route.ts into
 * /serwist/sw.js when `next build` prerenders that route, and registered by the shopper's order
 * pages once loaded (components/offline/service-worker-registration.tsx). What it keeps and why: lib/offline/offline-rules.ts
 * and docs/offline.md#offline.
 *
 * - Precached: the offline page alone (and the built files it names), so the install costs one
 *   small page.
 * - The shop's built files (/_next/static/, named by their content): cache first, one cache per
 *   build, asked for without cookies.
 * - The shopper's order pages (success, pending, order): network first, a copy kept for
 *   ORDER_PAGE_KEPT_DAYS, with the built files its own tags load, so it opens offline as it was.
 *   Never a file the page's text names: an order page shows what a shopper typed.
 * - Every other navigation: the network only, and the offline page when there is none. The back
 *   office, the API and every other request are never answered from a cache.
 * - "Esquecer este telefone" (components/offline/forget-this-phone.tsx), and signing out of or
 *   deleting the shopper's account (components/accounts/session-actions.tsx), delete every cache of
 *   the shop's from the page (components/offline/clear-kept-pages.ts); the worker then keeps the
 *   offline page's files again.
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
  isStylesheet,
  KEEP_OFFLINE_PAGE_FILES,
  mayKeepPage,
  mayKeepStaticFile,
  OFFLINE_PAGE_PATH,
  ORDER_PAGE_MAX_AGE_SECONDS,
  ORDER_PAGE_NETWORK_TIMEOUT_SECONDS,
  ORDER_PAGES_CACHE,
  ORDER_PAGES_MAX,
  staticFilesCache,
  staticFileUrl,
  staticFilesOf,
  staticFilesOfStylesheet,
} from "@/lib/offline/offline-rules";

declare const self: ServiceWorkerGlobalScope & {
  /** The precache list, written in by @serwist/turbopack: the offline page, revisioned by SHOP_BUILD. */
  __SW_MANIFEST: (PrecacheEntry | string)[] | undefined;
};
/** This build's id, defined by app/serwist/[path]/route.ts: a new build has new caches. */
declare const SHOP_BUILD: string;

const STATIC_FILES_CACHE = staticFilesCache(SHOP_BUILD);
const orderPagesExpiration = { maxEntries: ORDER_PAGES_MAX, maxAgeSeconds: ORDER_PAGE_MAX_AGE_SECONDS };

const origin = self.location.origin;

/**
 * How the worker asks for a built file itself: the shop's own origin only, without the viewer's
 * cookies (a built file is the same for everyone), and no redirect followed.
 */
const STATIC_FILE_REQUEST: RequestInit = { mode: "same-origin", credentials: "omit", redirect: "error" };

/**
 * Keeps the built files a page's own tags load (lib/offline/offline-rules.ts, staticFilesOf) in
 * this build's cache, and the fonts its stylesheets name: taken from any of the worker's caches
 * that has them (an order page kept under an earlier build needs that build's files), else from
 * the network (the browser's HTTP cache, mostly: the page has just loaded them). Each response
 * must pass mayKeepStaticFile, wherever it came from.
 */
async function keepStaticFilesOf(html: string): Promise<void> {
  await keepStaticFiles(staticFilesOf(html, origin), { withTheirFonts: true });
}

async function keepStaticFiles(urls: string[], { withTheirFonts }: { withTheirFonts: boolean }): Promise<void> {
  const cache = await caches.open(STATIC_FILES_CACHE);
  await Promise.all(
    urls.map(async (url) => {
      if (await cache.match(url)) return;
      const response = (await caches.match(url)) ?? (await fetch(url, STATIC_FILE_REQUEST).catch(() => undefined));
      if (!response || !mayKeepStaticFile(response)) return;
      await cache.put(url, response.clone());
      // One level: the fonts a stylesheet names name nothing more.
      if (withTheirFonts && isStylesheet(response))
        await keepStaticFiles(staticFilesOfStylesheet(await response.text(), url, origin), { withTheirFonts: false });
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

/** The same for a built file the page asked for: a script, a style, a font or a picture, kept whole. */
const onlyKeepableStaticFiles: SerwistPlugin = {
  cacheWillUpdate: async ({ response }) => (mayKeepStaticFile(response) ? response : null),
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
      // A plain address under /_next/static/ (no query, no encoded slash or dot-dot), asked for
      // without cookies; what comes back is kept only if it is a built file (mayKeepStaticFile).
      matcher: ({ url }) => isStaticFile(url, origin),
      handler: new CacheFirst({
        cacheName: STATIC_FILES_CACHE,
        fetchOptions: { credentials: "omit" },
        plugins: [onlyKeepableStaticFiles],
      }),
    },
    {
      // A navigation, or the page asking for one it opened without the worker (see
      // components/offline/service-worker-registration.tsx).
      matcher: ({ request, url }) => isOrderPageRequest(request, url, origin),
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
 * their built files copied into this build's cache, then every other cache of the shop's is
 * deleted. A built file this build's cache holds at an address today's rules would not keep (an
 * earlier worker of the same build, under older rules, kept what a page's text named) is deleted.
 */
async function replaceOldCaches(): Promise<void> {
  await new CacheExpiration(ORDER_PAGES_CACHE, orderPagesExpiration).expireEntries();
  const orderPages = await caches.open(ORDER_PAGES_CACHE);
  for (const request of await orderPages.keys()) {
    const page = await orderPages.match(request);
    if (page) await keepStaticFilesOf(await page.text());
  }
  const staticFiles = await caches.open(STATIC_FILES_CACHE);
  for (const request of await staticFiles.keys()) {
    if (staticFileUrl(request.url, origin, origin) === null) await staticFiles.delete(request);
  }
  const current = new Set([STATIC_FILES_CACHE, ORDER_PAGES_CACHE]);
  for (const name of await caches.keys()) {
    if (isShopCache(name) && !current.has(name)) await caches.delete(name);
  }
}

self.addEventListener("activate", (event) => event.waitUntil(replaceOldCaches()));

/** After "Esquecer este telefone" deleted every cache of the shop's: the offline page's files again, nothing of anyone's. */
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type !== KEEP_OFFLINE_PAGE_FILES) return;
  const kept = (async () => {
    const offlinePage = await serwist.matchPrecache(OFFLINE_PAGE_PATH);
    if (offlinePage) await keepStaticFilesOf(await offlinePage.text());
  })().catch(() => undefined);
  event.waitUntil(kept);
  void kept.then(() => event.ports[0]?.postMessage(true));
});
serwist.addEventListeners();
