"use client";

import { usePathname } from "next/navigation";
import { LANGS } from "@/lib/i18n/languages";

/**
 * The back office's sections as a list of links, the one the page is in marked (aria-current):
 * the shell (./admin-shell.tsx) hands in only the sections the person's role may open. A client
 * component for the address alone, which a layout is not given; the links are plain ones, so
 * each opens its page whole and the shell around it (who is signed in, the menu) is read anew.
 */

export interface NavLink {
  href: string;
  label: string;
}

/** The language a page's address has on the server (next.config.mjs's rewrites), never in the browser. */
const LANGUAGE_PREFIX = new RegExp(`^/(?:${LANGS.join("|")})(?=/|$)`);

/** The section `pathname` is in: the longest link that is the address or a folder of it; the home only itself. */
export function currentSection(pathname: string, hrefs: readonly string[]): string | undefined {
  const path = pathname.replace(LANGUAGE_PREFIX, "").replace(/\/+$/, "") || "/";
  return hrefs
    .filter((href) => path === href || (href !== "/admin" && path.startsWith(`${href}/`)))
    .sort((a, b) => b.length - a.length)[0];
}

export function AdminNavLinks({ links }: { links: readonly NavLink[] }) {
  const current = currentSection(
    usePathname(),
    links.map((link) => link.href),
  );
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {links.map((link) => (
        <li key={link.href}>
          <a
            href={link.href}
            aria-current={link.href === current ? "page" : undefined}
            className="block rounded-md px-3 py-2 font-medium text-stone-700 hover:bg-stone-100 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white"
          >
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
