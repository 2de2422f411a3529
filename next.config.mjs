import { PHASE_DEVELOPMENT_SERVER } from "next/constants.js";

// Every page lives under app/[lang]/ and its address carries no language: the rewrites below
// send `/cart` to `/pt/cart` or `/en/cart` by the `lang` cookie.
// They are rewrites here rather than in proxy.ts so that the cached catalogue and product pages
// are answered with no proxy at all (on Vercel, by the routing layer in front of the CDN).
// tests/unit/next-config.test.ts keeps these in step with lib/i18n (the languages, the cookie)
// and lib/http/csp.ts (the cached pages' policy).
const LANG_COOKIE = "lang";
const DEFAULT_LANG = "pt";
const OTHER_LANGS = ["en"];

/**
 * A generated Open Graph image of a page (app/[lang]/…/opengraph-image.tsx): Next writes its
 * address into the page's og:image with the language, e.g. /pt/products/<slug>/opengraph-image,
 * so that address is served as it is, never rewritten into a second language.
 */
const LANGUAGE_IMAGE = `(?:${[DEFAULT_LANG, ...OTHER_LANGS].join("|")})/.+/opengraph-image(?:/|$)`;

/**
 * Every address but the API's, Next's own, the sitemaps' (/sitemap/<n>.xml: a route with a
 * parameter, which comes after these rewrites; their index), the service worker's
 * (/serwist/sw.js: app/serwist/[path]/route.ts, a route with a parameter too) and a language's
 * Open Graph images; files (public/, robots.txt, the icon) are served before any of these.
 */
const PAGE = `/:path((?!api(?:/|$)|_next/|sitemap/|sitemap_index\\.xml$|serwist/|${LANGUAGE_IMAGE}).+)`;

function languageRewrites() {
  const into = (lang, has) => [
    { source: "/", destination: `/${lang}`, ...(has ? { has } : {}) },
    { source: PAGE, destination: `/${lang}/:path`, ...(has ? { has } : {}) },
  ];
  return [
    ...OTHER_LANGS.flatMap((lang) => into(lang, [{ type: "cookie", key: LANG_COOKIE, value: lang }])),
    ...into(DEFAULT_LANG),
  ];
}

/**
 * The Content-Security-Policy of the cached pages (`/`, `/page/<n>`, `/categories/<slug>` and its
 * pages, `/products/<slug>`, and the offline page, built once for the service worker), which cannot carry a
 * per-response nonce: lib/http/csp.ts, `contentSecurityPolicy({ nonce: null })`. Every other
 * page gets its nonce policy from proxy.ts.
 */
const cachedPagePolicy = (development) =>
  [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

/** @type {(phase: string) => import('next').NextConfig} */
const nextConfig = (phase) => ({
  reactStrictMode: true,
  poweredByHeader: false,
  // pg and Prisma's driver adapter are Node libraries; load them from node_modules at run time.
  // esbuild (native, or its WebAssembly build) bundles the service worker when the build
  // prerenders app/serwist/[path]/route.ts: a program to run, not code to bundle.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "esbuild", "esbuild-wasm"],
  images: { unoptimized: true },
  // GET /api/health compares the database's migrations with this build's (lib/db/health.ts);
  // file tracing cannot see a directory read, so ship it with that function.
  outputFileTracingIncludes: { "/api/health": ["./prisma/migrations/**/*"] },
  // `next dev` serves its own resources (/_next/*, the HMR socket) to pages from localhost and
  // *.localhost only; from any other host a page never hydrates. These are the other names of
  // this machine, as the browser's Origin gives them (IPv6 in brackets). Development only.
  allowedDevOrigins: ["127.0.0.1", "[::1]"],
  async rewrites() {
    // After the files and the routes without parameters (the API's, the sitemap), before the
    // routes with parameters: `/cart` must not be read as the language "cart".
    // /sitemap.xml: the index of the split sitemaps, which Next does not write and whose address
    // no route may take beside app/sitemap.ts (lib/seo/seo.ts, sitemapPath).
    return {
      beforeFiles: [{ source: "/sitemap.xml", destination: "/sitemap_index.xml" }],
      afterFiles: languageRewrites(),
      fallback: [],
    };
  },
  async headers() {
    const cachedPolicy = [
      { key: "Content-Security-Policy", value: cachedPagePolicy(phase === PHASE_DEVELOPMENT_SERVER) },
    ];
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      { source: "/", headers: cachedPolicy },
      // A product page; the product images under public/products/ are files, not pages.
      { source: "/products/:slug((?!.*\\.svg$)[^/]+)", headers: cachedPolicy },
      // The catalogue's later pages, and a category's pages (app/[lang]/categories/).
      { source: "/page/:page", headers: cachedPolicy },
      { source: "/categories/:slug", headers: cachedPolicy },
      { source: "/categories/:slug/page/:page", headers: cachedPolicy },
      // The page the service worker shows offline (app/[lang]/offline/page.tsx): built once.
      { source: "/offline", headers: cachedPolicy },
    ];
  },
});

export default nextConfig;
