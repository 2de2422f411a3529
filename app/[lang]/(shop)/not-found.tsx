"use client";

import { ShopLink } from "@/components/ui/shop-link";
import { useParams } from "next/navigation";
import { parseLang } from "@/lib/i18n/languages";
import { stateTexts } from "@/lib/i18n/state-texts";

// A client component that takes its language from the route (`[lang]`): it is also the 404 of
// the cached product pages, which must read no cookie.
export default function NotFound() {
  const t = stateTexts(parseLang(useParams<{ lang?: string }>().lang));
  return (
    <section className="flex flex-col items-start gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{t.notFound.title}</h1>
      <p className="text-stone-600">{t.notFound.body}</p>
      <ShopLink href="/" className="text-brand-700 hover:underline">
        {t.notFound.home}
      </ShopLink>
    </section>
  );
}
