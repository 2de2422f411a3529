import { ShopLink } from "@/components/ui/shop-link";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/** The page numbers shown around the current one: the first, the last, and two on each side. */
export function visiblePages(page: number, pages: number): (number | "gap")[] {
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  return shown.flatMap((n, i) => (i > 0 && n - shown[i - 1]! > 1 ? ["gap" as const, n] : [n]));
}

/** Links to the listing's pages; plain links, so paging works without JavaScript and with the back button. */
export function Pagination({
  t,
  page,
  pages,
  href,
}: {
  t: Dictionary;
  page: number;
  pages: number;
  /** The address of page `n` of this listing. */
  href: (n: number) => string;
}) {
  if (pages <= 1) return null;
  const link = "min-w-10 rounded-md border border-stone-300 px-3 py-2 text-center hover:bg-stone-100";
  return (
    <nav aria-label={t.browse.pagination} className="mt-8 flex flex-wrap items-center justify-center gap-2 text-sm">
      {page > 1 ? (
        <ShopLink href={href(page - 1)} rel="prev" className={link}>
          {t.browse.previous}
        </ShopLink>
      ) : null}
      {visiblePages(page, pages).map((n, i) =>
        n === "gap" ? (
          <span key={`gap-${i}`} aria-hidden="true" className="px-1 text-stone-500">
            …
          </span>
        ) : n === page ? (
          <span
            key={n}
            aria-current="page"
            className="min-w-10 rounded-md border border-stone-900 bg-stone-900 px-3 py-2 text-center font-medium text-white"
          >
            <span className="sr-only">{t.browse.goToPage(n)}</span>
            <span aria-hidden="true">{n}</span>
          </span>
        ) : (
          <ShopLink key={n} href={href(n)} className={link} aria-label={t.browse.goToPage(n)}>
            {n}
          </ShopLink>
        ),
      )}
      {page < pages ? (
        // The likely next step of a shopper reading a listing: worth its data, fetched once in view.
        <ShopLink href={href(page + 1)} rel="next" prefetchInView className={link}>
          {t.browse.next}
        </ShopLink>
      ) : null}
      <p className="w-full text-center text-stone-500">{t.browse.pageOf(page, pages)}</p>
    </nav>
  );
}
