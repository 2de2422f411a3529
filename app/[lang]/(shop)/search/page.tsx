import type { Metadata } from "next";
import { addToCartAction } from "@/app/actions/cart";
import { SearchView } from "@/components/catalog/views";
import { readBrowseParams } from "@/lib/catalog/browse-query";
import { routeLang } from "@/lib/http/route-lang";
import { requestSavesData } from "@/lib/http/save-data";

// Search words, a sort or a filter, on all products or a category's (?category=): rendered per
// request from the URL alone (lib/catalog/browse-query.ts), so any view can be shared and needs no
// JavaScript. Not for search engines: the categories and products are their pages. A shopper
// saving data (`Save-Data: on`, lib/http/save-data.ts) gets cards without pictures.
export const dynamic = "force-dynamic";
export const maxDuration = 30;

export const metadata: Metadata = { robots: { index: false, follow: true } };

export default async function SearchPage({
  params,
  searchParams,
}: {
  params: Promise<{ lang: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ lang, t }, raw, saveData] = await Promise.all([routeLang(params), searchParams, requestSavesData()]);
  return <SearchView lang={lang} t={t} query={readBrowseParams(raw)} addToCart={addToCartAction} saveData={saveData} />;
}
