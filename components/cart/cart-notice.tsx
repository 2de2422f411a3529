"use client";

import { useSearchParams } from "next/navigation";
import { Suspense } from "react";
import { cartNoticeMessage, readCartNotice } from "@/lib/cart/cart-notices";
import type { Lang } from "@/lib/i18n/languages";
import { storefrontTexts } from "@/lib/i18n/storefront-texts";

/**
 * The outcome of the last cart form, from the page's query (see lib/cart/cart-notices.ts). Read in
 * the browser, so the catalogue and product pages stay one cached page for every query: there it
 * shows once the page has hydrated; the cart page, rendered per request, has it in its HTML.
 */
export function CartNotice({ lang }: { lang: Lang }) {
  return (
    <Suspense fallback={null}>
      <QueryNotice lang={lang} />
    </Suspense>
  );
}

function QueryNotice({ lang }: { lang: Lang }) {
  const query = useSearchParams();
  const notice = readCartNotice({
    notice: query.get("notice") ?? undefined,
    quantity: query.get("quantity") ?? undefined,
  });
  if (!notice) return null;
  const error = notice.tone === "error";
  return (
    <p
      role={error ? "alert" : "status"}
      className={`mb-6 rounded-lg border px-4 py-3 text-sm ${
        error ? "border-red-200 bg-red-50 text-red-800" : "border-emerald-200 bg-emerald-50 text-emerald-800"
      }`}
    >
      {cartNoticeMessage(storefrontTexts(lang), notice)}
    </p>
  );
}
