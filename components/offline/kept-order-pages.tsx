"use client";

import { useEffect, useState } from "react";
import { luandaDayAndTime } from "@/lib/luanda-time";
import { keptUntil, ORDER_PAGES_CACHE, orderPageOf, type OrderPageKind } from "@/lib/offline/offline-rules";
import { shortOrderId } from "@/lib/orders/order-number";
import { KEPT_PAGES_FORGOTTEN } from "@/components/offline/clear-kept-pages";
import { fillSlot, type KeptOrderPagesTexts } from "@/components/offline/kept-order-texts";

/**
 * The offline page's list of the order pages this browser kept (the service worker's cache,
 * read here by the page itself), newest first, each a plain link: offline, the worker answers
 * it from that cache. Those past their time are left out; the worker deletes them. Emptied when
 * "Esquecer este telefone" (./forget-this-phone.tsx) has deleted them.
 */

interface KeptPage {
  path: string;
  kind: OrderPageKind;
  externalTransactionId: string;
  /** When the server answered, ISO. */
  savedAt: string;
}

async function keptOrderPages(now: number): Promise<KeptPage[]> {
  if (!("caches" in window) || !(await caches.has(ORDER_PAGES_CACHE))) return [];
  const cache = await caches.open(ORDER_PAGES_CACHE);
  const pages = await Promise.all(
    (await cache.keys()).map(async (request): Promise<KeptPage | null> => {
      const path = new URL(request.url).pathname;
      const page = orderPageOf(path);
      const response = await cache.match(request);
      const until = response && keptUntil(response.headers);
      if (!page || !until || until.getTime() <= now) return null;
      return { path, ...page, savedAt: new Date(Date.parse(response.headers.get("Date")!)).toISOString() };
    }),
  );
  return pages.filter((page) => page !== null).sort((a, b) => b.savedAt.localeCompare(a.savedAt));
}

export function KeptOrderPages({ texts }: { texts: KeptOrderPagesTexts }) {
  const [pages, setPages] = useState<KeptPage[] | null>(null);

  useEffect(() => {
    let current = true;
    keptOrderPages(Date.now()).then(
      (kept) => current && setPages(kept),
      () => current && setPages([]),
    );
    const forgotten = () => {
      current = false;
      setPages([]);
    };
    window.addEventListener(KEPT_PAGES_FORGOTTEN, forgotten);
    return () => {
      current = false;
      window.removeEventListener(KEPT_PAGES_FORGOTTEN, forgotten);
    };
  }, []);

  // Before the cache is read: nothing, rather than "none" flashing first.
  if (pages === null) return null;
  if (pages.length === 0) return <p data-testid="no-kept-order-pages">{texts.none}</p>;
  return (
    <ul className="flex flex-col gap-3">
      {pages.map((page) => (
        <li key={page.path} data-testid="kept-order-page">
          {/* A plain link: the worker answers the navigation, the router would ask the server first. */}
          <a href={page.path} className="font-medium text-brand-700 hover:underline">
            {fillSlot(texts.order, shortOrderId(page.externalTransactionId))}: {texts.kinds[page.kind]}
          </a>
          <span className="block text-sm text-stone-600">
            {fillSlot(texts.savedAt, luandaDayAndTime(page.savedAt, texts.locale))}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Loads the address again: the page the shopper asked for, once the connection is back. */
export function RetryButton({ label }: { label: string }) {
  return (
    <button
      type="button"
      onClick={() => window.location.reload()}
      className="rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white hover:bg-stone-700"
    >
      {label}
    </button>
  );
}
