import { NextResponse, type NextRequest } from "next/server";
import { nodeEnv } from "@/lib/env";
import { contentSecurityPolicy, newNonce } from "@/lib/http/csp";
import { ORDER_PAGE_CACHE_CONTROL, orderPageOf } from "@/lib/offline/offline-rules";

// The Content-Security-Policy with a fresh nonce, for every page rendered per request (the
// cart, checkout, result and order pages, the back office, the 404): Next reads the nonce from
// the request's policy header and puts it on its scripts; pages read it from `x-nonce`. The
// cached catalogue and product pages are not matched: they get their policy, without a nonce,
// from next.config.mjs, and no proxy runs for them (lib/http/csp.ts).
export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const policy = contentSecurityPolicy({ nonce, development: nodeEnv() === "development" });
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  // The shopper's order pages may be kept in this browser (the service worker keeps them to be
  // read offline) and nowhere else; every other page keeps Next's no-store (lib/offline/offline-rules.ts).
  if (orderPageOf(request.nextUrl.pathname)) response.headers.set("Cache-Control", ORDER_PAGE_CACHE_CONTROL);
  // /search answers `Save-Data: on` with cards without pictures (lib/http/save-data.ts); the cached
  // pages say so from next.config.mjs.
  if (request.nextUrl.pathname === "/search") response.headers.append("Vary", "Save-Data");
  return response;
}

export const config = {
  // Not `/`, `/page/…`, `/categories/…` nor `/products/…` (the cached pages and the product images), nor the API (the
  // webhook above all), Next's files, the icon, the sitemaps (/sitemap/<n>.xml) and their index (/sitemap.xml), robots.txt or the
  // Open Graph images (/pt/products/<slug>/opengraph-image-<Next's suffix>): no script runs in those. Nor the offline page (built once,
  // its policy from next.config.mjs) or the service worker's script (/serwist/sw.js).
  // Prefetches neither: they carry no script to run.
  matcher: [
    {
      source:
        "/((?!api/|_next/static|_next/image|products/|categories/|page/|icon\\.svg$|sitemap/|sitemap(?:_index)?\\.xml$|robots\\.txt$|[a-z]{2}/.+/opengraph-image(?:-[a-z0-9]+)?$|offline$|serwist/).+)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
