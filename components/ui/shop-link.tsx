"use client";

import Link from "next/link";
import { type ComponentProps, useState, useSyncExternalStore } from "react";

/**
 * The shop's link: next/link, prefetching only where it pays, since every prefetch is data the
 * shopper pays for (e2e/support/data-budget.ts). Next prefetches each link as it scrolls into
 * view: a listing's worth of product pages that the shopper never opens. Here:
 * - a link prefetches its page once the shopper shows intent: the pointer over it, a finger on
 *   it, the keyboard's focus. The page is usually there by the time the click lands;
 * - `prefetchInView`: as soon as it is in view, for the likely next step (a listing's next page);
 * - never for a shopper saving data: the browser says so (`navigator.connection.saveData`, or a 2G
 *   connection), or the server rendered the page for a `Save-Data: on` request and marked it
 *   (`data-save-data`, app/[lang]/(shop)/save-data/layout.tsx).
 * The link itself works as any link before and without JavaScript.
 */
export function ShopLink({
  prefetchInView = false,
  onMouseEnter,
  onTouchStart,
  onFocus,
  ...props
}: Omit<ComponentProps<typeof Link>, "prefetch"> & { prefetchInView?: boolean }) {
  const [intent, setIntent] = useState(false);
  const saving = useSyncExternalStore(subscribeToConnection, savingData, () => true);
  const showIntent = () => {
    if (!savingData()) setIntent(true);
  };
  return (
    <Link
      {...props}
      // null: Next's own prefetch (the page in view is fetched); false: none.
      prefetch={!saving && (intent || prefetchInView) ? null : false}
      onMouseEnter={(event) => {
        showIntent();
        onMouseEnter?.(event);
      }}
      onTouchStart={(event) => {
        showIntent();
        onTouchStart?.(event);
      }}
      onFocus={(event) => {
        showIntent();
        onFocus?.(event);
      }}
    />
  );
}

interface Connection extends EventTarget {
  saveData?: boolean;
  effectiveType?: string;
}

const connection = () => (navigator as Navigator & { connection?: Connection }).connection;

/** The shopper saves data, or is on a connection too slow to spend any on guesses. */
export function savingData(): boolean {
  const current = connection();
  return (
    current?.saveData === true ||
    current?.effectiveType === "2g" ||
    current?.effectiveType === "slow-2g" ||
    document.querySelector("[data-save-data]") !== null
  );
}

function subscribeToConnection(changed: () => void) {
  const current = connection();
  current?.addEventListener("change", changed);
  return () => current?.removeEventListener("change", changed);
}
