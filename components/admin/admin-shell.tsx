import { AdminNavLinks, type NavLink } from "@/components/admin/admin-nav-links";
import { LanguageSwitch } from "@/components/ui/language-switch";
import { mayOpenPage } from "@/lib/admin/roles";
import type { Actor } from "@/lib/admin/staff-events";
import type { BackOfficeTexts } from "@/lib/i18n/back-office";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";

/**
 * The back office's frame (app/[lang]/admin/layout.tsx), none of the shop's header, search or
 * cart: the shop's name, the language, and, for a person signed in, their name and role, the
 * two sign-outs and the sections their role may open (lib/admin/roles.ts): a side bar on a wide
 * screen, a menu that opens on a phone (a disclosure, no script). Signed out (or the back office
 * off), only the name and the page: the sign-in form.
 */

/** Every section of the back office, in the menu's order; each shown to a role that may open it. */
export function backOfficeSections(t: Dictionary, words: BackOfficeTexts): NavLink[] {
  return [
    { href: "/admin", label: t.admin.nav.home },
    { href: "/admin/orders", label: t.admin.nav.orders },
    { href: "/admin/products", label: t.admin.products.title },
    { href: "/admin/categories", label: t.admin.categories.title },
    { href: "/admin/catalogue", label: t.admin.catalogue.title },
    { href: "/admin/delivery", label: t.admin.deliveryMethods.title },
    { href: "/admin/promo-codes", label: t.admin.promoCodes.title },
    { href: "/admin/people", label: words.shell.nav.people },
    { href: "/admin/activity", label: words.shell.nav.activity },
    { href: "/admin/account", label: words.shell.nav.account },
  ];
}

const buttonClass = "rounded-md border border-stone-300 px-3 py-1.5 hover:bg-stone-100";

export function AdminShell({
  t,
  words,
  lang,
  setLanguage,
  actor,
  children,
}: {
  t: Dictionary;
  words: BackOfficeTexts;
  lang: Lang;
  /** The language switch's server action (app/actions/language.ts). */
  setLanguage: (formData: FormData) => Promise<void>;
  /** Who is signed in; none shows the frame without the menu. */
  actor: Actor | undefined;
  children: React.ReactNode;
}) {
  const sections = actor ? backOfficeSections(t, words).filter((link) => mayOpenPage(actor.role, link.href)) : [];
  return (
    <>
      <a
        href="#content"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        {words.shell.skipToContent}
      </a>
      <header className="border-b border-stone-200 bg-white print:hidden">
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
          <p className="flex items-baseline gap-2">
            <a href="/admin" className="text-lg font-semibold tracking-tight text-brand-700">
              {t.shop.name}
            </a>
            <span className="text-sm text-stone-600">{words.shell.backOffice}</span>
          </p>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <LanguageSwitch t={t} lang={lang} setLanguage={setLanguage} />
            {actor && (
              <>
                <p data-testid="admin-person" className="px-1">
                  <span className="sr-only">{words.shell.signedInAs} </span>
                  <span className="font-medium">{actor.name}</span>
                  <span className="text-stone-600"> · {words.shell.roles[actor.role]}</span>
                </p>
                <form method="post" action="/api/admin/session/sign-out">
                  <button type="submit" className={buttonClass}>
                    {t.admin.signOut}
                  </button>
                </form>
                <form method="post" action="/api/admin/session/sign-out-everywhere">
                  <button type="submit" className={buttonClass}>
                    {t.admin.signOutEverywhere}
                  </button>
                </form>
              </>
            )}
          </div>
        </div>
      </header>
      {actor ? (
        <div className="flex-1 lg:flex">
          {/* One list of sections twice, one shown at a time: a menu to open on a phone, a side bar on a wide screen. */}
          <nav aria-label={t.admin.nav.label} className="border-b border-stone-200 bg-white lg:hidden print:hidden">
            <details>
              <summary className="cursor-pointer px-4 py-3 font-medium">{words.shell.menu}</summary>
              <div className="px-2 pb-3">
                <AdminNavLinks links={sections} />
              </div>
            </details>
          </nav>
          <nav
            aria-label={t.admin.nav.label}
            className="hidden w-60 shrink-0 border-r border-stone-200 bg-white px-2 py-4 lg:block print:hidden"
          >
            <AdminNavLinks links={sections} />
          </nav>
          <main id="content" tabIndex={-1} className="min-w-0 flex-1 px-4 py-8 lg:px-8 print:p-0">
            {children}
          </main>
        </div>
      ) : (
        <main id="content" tabIndex={-1} className="mx-auto w-full max-w-6xl px-4 py-8">
          {children}
        </main>
      )}
    </>
  );
}
