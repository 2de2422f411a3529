"use client";

import { useEffect } from "react";
import { orderPageOf, SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from "@/lib/offline/offline-rules";

/**
 * Rendered by the shopper's order pages only (components/orders/order-result.tsx): the service
 * worker (app/sw.ts) is installed once this browser shows an order of its own, the one thing it
 * keeps, so a visit to the catalogue never pays for its install (docs/storefront.md, the data
 * budget). Registered after the page's load, so it never competes with the page for the
 * connection. In development it unregisters any (a production build served on the same address
 * earlier), so that `next dev`'s files are never answered from a cache.
 *
 * The worker keeps the order pages it answers; this tells it about one it did not see: the page
 * that loaded before the worker was there, and one reached by a client-side navigation, whose
 * HTML never passed through it (the router fetched only its RSC payload). The worker then loads
 * the page itself, under the same rules (lib/offline/offline-rules.ts).
 */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    if (process.env.NODE_ENV !== "production") {
      void navigator.serviceWorker
        .getRegistrations()
        .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())));
      return;
    }
    // Offline, or refused: the shop works as before, without offline pages.
    const register = () =>
      void navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE }).catch(() => {});
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
    // The document's own page passed through the worker when one controlled it; a page the
    // router brought in later never did.
    if (documentLoaded || !navigator.serviceWorker.controller) keepOrderPage(window.location.pathname);
    documentLoaded = true;
    return () => window.removeEventListener("load", register);
  }, []);

  return null;
}

/** False until the first order page of this document has mounted: later ones came by the router. */
let documentLoaded = false;

/** Asks the worker to load and keep the order page at `pathname` (Serwist's CACHE_URLS message), if it is one. */
function keepOrderPage(pathname: string) {
  if (!orderPageOf(pathname)) return;
  void navigator.serviceWorker.ready.then((registration) =>
    registration.active?.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: [pathname] } }),
  );
}
