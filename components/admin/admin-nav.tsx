import Link from "next/link";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/** The back office's sections, on every signed-in admin page; later sections add a link here. */
export function AdminNav({
  t,
  current,
}: {
  t: Dictionary;
  /** The section the page is in; the people's and the account's pages have no link here yet. */
  current:
    "home" | "orders" | "products" | "categories" | "catalogue" | "delivery" | "promo-codes" | "people" | "account";
}) {
  const links = [
    { key: "home", href: "/admin", label: t.admin.nav.home },
    { key: "orders", href: "/admin/orders", label: t.admin.nav.orders },
    { key: "products", href: "/admin/products", label: t.admin.products.title },
    { key: "categories", href: "/admin/categories", label: t.admin.categories.title },
    { key: "catalogue", href: "/admin/catalogue", label: t.admin.catalogue.title },
    { key: "delivery", href: "/admin/delivery", label: t.admin.deliveryMethods.title },
    { key: "promo-codes", href: "/admin/promo-codes", label: t.admin.promoCodes.title },
  ] as const;
  return (
    <nav aria-label={t.admin.nav.label} className="flex flex-wrap gap-2 text-sm">
      {links.map((link) => (
        <Link
          key={link.key}
          href={link.href}
          aria-current={link.key === current ? "page" : undefined}
          className="rounded-md border border-stone-300 px-3 py-1.5 hover:bg-stone-100 aria-[current=page]:border-brand-700 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white"
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
