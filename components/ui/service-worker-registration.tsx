"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { isBackOfficePath, orderPageOf, SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from "@/lib/offline/offline-rules";

/**
 * Registers the service worker (app/sw.ts) once the page has loaded, so that it never competes
 * with the page for the connection; never from the back office. In development it unregisters
 * any (a production build served on the same address earlier), so that `next dev`'s files are
 * never answered from a cache.
 *
 * The worker keeps the order pages it answers; this tells it about one it did not see: the page
 * that loaded before the worker was there, and one reached by a client-side navigation, whose
 * HTML never passed through it (the router fetched only its RSC payload). The worker then loads
 * the page itself, under the same rules (lib/offline/offline-rules.ts).
 */
export function ServiceWorkerRegistration() {
  const pathname = usePathname();
  const firstRender = useRef(true);

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    if (process.env.NODE_ENV !== "production") {
      void navigator.serviceWorker
        .getRegistrations()
        .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())));
      return;
    }
    if (isBackOfficePath(window.location.pathname)) return;
    // Offline, or refused: the shop works as before, without offline pages.
    const register = () =>
      void navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: SERVICE_WORKER_SCOPE }).catch(() => {});
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
    if (!navigator.serviceWorker.controller) keepOrderPage(window.location.pathname);
    return () => window.removeEventListener("load", register);
  }, []);

  // `pathname` only says that the page changed; the address is the browser's (the rewrites add a language).
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (process.env.NODE_ENV === "production" && "serviceWorker" in navigator) keepOrderPage(window.location.pathname);
  }, [pathname]);

  return null;
}

/** Asks the worker to load and keep the order page at `pathname` (Serwist's CACHE_URLS message), if it is one. */
function keepOrderPage(pathname: string) {
  if (!orderPageOf(pathname)) return;
  void navigator.serviceWorker.ready.then((registration) =>
    registration.active?.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: [pathname] } }),
  );
}
