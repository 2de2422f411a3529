import { ShopLink } from "@/components/ui/shop-link";
import { HeaderAccountLinks, HeaderCartCount } from "@/components/cart/header-cart-count";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { LanguageSwitch } from "@/components/ui/language-switch";

/**
 * The header of every shop page: the shop's name, the search form, the language switch, the
 * shopper's orders or account (an island: components/cart/header-cart-count.tsx), the cart with
 * its count, and the top categories.
 */
export function SiteHeader({
  t,
  lang,
  setLanguage,
  categories,
}: {
  t: Dictionary;
  lang: Lang;
  /** The top level of the category tree, in order (lib/catalog/categories.ts). */
  categories: readonly { slug: string; name: string }[];
  /** The language switch's server action (app/actions/language.ts, handed in by the layout). */
  setLanguage: (formData: FormData) => Promise<void>;
}) {
  return (
    <header className="border-b border-stone-200 bg-white print:hidden">
      <nav
        aria-label={t.shop.mainNavigation}
        className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-4"
      >
        <ShopLink href="/" className="text-lg font-semibold tracking-tight text-brand-700">
          {t.shop.name}
        </ShopLink>
        {/* A plain GET form: search works before (or without) JavaScript. */}
        <form
          action="/search"
          method="get"
          role="search"
          aria-label={t.browse.searchLabel}
          className="order-last flex w-full gap-2 sm:order-none sm:w-auto sm:flex-1 sm:max-w-md"
        >
          <label htmlFor="site-search" className="sr-only">
            {t.browse.searchLabel}
          </label>
          <input
            id="site-search"
            name="q"
            type="search"
            maxLength={100}
            placeholder={t.browse.searchPlaceholder}
            className="min-w-0 flex-1 rounded-md border border-stone-300 px-3 py-2 text-base"
          />
          <button
            type="submit"
            className="rounded-md bg-stone-900 px-3 py-2 text-sm font-medium text-white hover:bg-stone-700"
          >
            {t.browse.searchButton}
          </button>
        </form>
        <div className="flex items-center gap-3">
          <LanguageSwitch t={t} lang={lang} setLanguage={setLanguage} />
          <HeaderAccountLinks lang={lang} />
          <HeaderCartCount lang={lang} />
        </div>
      </nav>
      {categories.length > 0 ? (
        <nav aria-label={t.browse.categories} className="border-t border-stone-100">
          <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-4 py-2 text-sm">
            {categories.map((category) => (
              <li key={category.slug} className="shrink-0">
                <ShopLink
                  href={`/categories/${category.slug}`}
                  className="inline-block rounded-md px-3 py-1.5 font-medium text-stone-700 hover:bg-stone-100"
                >
                  {category.name}
                </ShopLink>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}
