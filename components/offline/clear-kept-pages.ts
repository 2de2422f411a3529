import { isShopCache, KEEP_OFFLINE_PAGE_FILES } from "@/lib/offline/offline-rules";

/**
 * Deleting what the shop's service worker kept in this browser (app/sw.ts; the rules:
 * lib/offline/offline-rules.ts): every cache of the shop's (the order pages it kept, the built
 * files), from the page itself, so it works with the worker or without it, and offline; then the
 * worker keeps the offline page's files again. What "Esquecer este telefone"
 * (./forget-this-phone.tsx) and the account's sign-out and deletion
 * (components/accounts/session-actions.tsx) do in the browser.
 */

/** Sent on window once the kept pages are gone, for the offline page's list (./kept-order-pages.tsx). */
export const KEPT_PAGES_FORGOTTEN = "shop:kept-pages-forgotten";

/** How long the worker gets to keep the offline page's files again before the caller goes on. */
const WORKER_ANSWER_MS = 5_000;

/** Deletes every cache of the shop's worker and says so on window; throws when the browser refuses. */
export async function forgetKeptPages(): Promise<void> {
  if ("caches" in window) {
    for (const name of await caches.keys()) {
      if (isShopCache(name)) await caches.delete(name);
    }
  }
  window.dispatchEvent(new Event(KEPT_PAGES_FORGOTTEN));
}

/** Asks the worker, if there is one, to keep the offline page's built files again; resolves when it has, or gives up. */
export async function keepOfflinePageFiles(): Promise<void> {
  const worker = "serviceWorker" in navigator ? (await navigator.serviceWorker.getRegistration())?.active : undefined;
  if (!worker) return;
  const channel = new MessageChannel();
  await new Promise<void>((resolve) => {
    const timer = window.setTimeout(resolve, WORKER_ANSWER_MS);
    channel.port1.onmessage = () => {
      window.clearTimeout(timer);
      resolve();
    };
    worker.postMessage({ type: KEEP_OFFLINE_PAGE_FILES }, [channel.port2]);
  });
  channel.port1.close();
}
