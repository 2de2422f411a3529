"use client";

import Link from "next/link";
import { useParams } from "next/navigation";
import { dictionary } from "@/lib/i18n/dictionaries";
import { parseLang } from "@/lib/i18n/languages";

// A client component that takes its language from the route (`[lang]`): it is also the 404 of
// the cached product pages, which must read no cookie.
export default function NotFound() {
  const t = dictionary(parseLang(useParams<{ lang?: string }>().lang));
  return (
    <section className="flex flex-col items-start gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{t.notFound.title}</h1>
      <p className="text-stone-600">{t.notFound.body}</p>
      <Link href="/" className="text-brand-700 hover:underline">
        {t.notFound.home}
      </Link>
    </section>
  );
}
