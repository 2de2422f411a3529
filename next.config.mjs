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
 * A generated Open Graph image of a page (app/[lang]/(shop)/…/opengraph-image.tsx): Next writes its
 * address into the page's og:image with the language, e.g. /pt/products/<slug>/opengraph-image-1yzh3a
 * (the suffix is Next's, for an image whose folder is inside a route group such as (shop)), so
 * that address is served as it is, never rewritten into a second language.
 */
const LANGUAGE_IMAGE = `(?:${[DEFAULT_LANG, ...OTHER_LANGS].join("|")})/.+/opengraph-image(?:-[a-z0-9]+)?(?:/|$)`;

/**
 * The cached pages' form for a shopper saving data lives under app/[lang]/(shop)/save-data/, reached
 * only through the rewrites below: its address is never a page of its own.
 */
const SAVE_DATA_SEGMENT = "save-data";

/**
 * Every address but the API's, Next's own, the sitemaps' (/sitemap/<n>.xml: a route with a
 * parameter, which comes after these rewrites; their index), the service worker's
 * (/serwist/sw.js: app/serwist/[path]/route.ts, a route with a parameter too), a language's Open
 * Graph images and the Save-Data pages' own; files (public/, robots.txt, the icon) are served
 * before any of these.
 */
const PAGE = `/:path((?!api(?:/|$)|_next/|sitemap/|sitemap_index\\.xml$|serwist/|${SAVE_DATA_SEGMENT}(?:/|$)|${LANGUAGE_IMAGE}).+)`;

/**
 * The cached pages but `/` (CACHED_PAGES below): the catalogue's later pages, a category and its
 * pages, a product (not its image files, which are served before any rewrite).
 */
const CACHED_PAGE = "/:path(page/[^/]+|categories/[^/]+|categories/[^/]+/page/[^/]+|products/[^/]+)";

/**
 * A browser that sends `Save-Data: on` (its data saver) gets the cached pages' lighter form
 * (app/[lang]/(shop)/save-data/, docs/data-budget.md#saving-data), chosen here by the header alone so
 * that both forms stay cached pages; their responses say `Vary: Save-Data` (headers below). The
 * header's value is a case-insensitive token.
 */
const SAVE_DATA = { type: "header", key: "save-data", value: "[Oo][Nn]" };

function languageRewrites() {
  const into = (lang, cookie) => {
    const when = (...has) => (has.length > 0 ? { has } : {});
    const language = cookie ? [cookie] : [];
    return [
      { source: "/", destination: `/${lang}/${SAVE_DATA_SEGMENT}`, ...when(SAVE_DATA, ...language) },
      { source: CACHED_PAGE, destination: `/${lang}/${SAVE_DATA_SEGMENT}/:path`, ...when(SAVE_DATA, ...language) },
      { source: "/", destination: `/${lang}`, ...when(...language) },
      { source: PAGE, destination: `/${lang}/:path`, ...when(...language) },
    ];
  };
  return [
    ...OTHER_LANGS.flatMap((lang) => into(lang, { type: "cookie", key: LANG_COOKIE, value: lang })),
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

/**
 * The cached pages' addresses, as the headers below match them: the catalogue and its later
 * pages, a product page (the product images under public/products/ are files, not pages), a
 * category's pages (app/[lang]/(shop)/categories/).
 */
const CACHED_PAGES = [
  "/",
  "/products/:slug((?!.*\\.svg$)[^/]+)",
  "/page/:page",
  "/categories/:slug",
  "/categories/:slug/page/:page",
];

/** @type {(phase: string) => import('next').NextConfig} */
const nextConfig = (phase) => ({
  reactStrictMode: true,
  // forbidden() and app/[lang]/admin/forbidden.tsx: a back-office page a role may not open answers 403.
  experimental: { authInterrupts: true },
  poweredByHeader: false,
  // pg and Prisma's driver adapter are Node libraries; load them from node_modules at run time.
  // esbuild (native, or its WebAssembly build) bundles the service worker when the build
  // prerenders app/serwist/[path]/route.ts: a program to run, not code to bundle. Twilio's SDK
  // (lib/messages/twilio.ts) is a large CommonJS package that loads its API domains lazily.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "esbuild", "esbuild-wasm", "twilio"],
  // Product pictures are resized for the screen by Next's image optimizer (components/catalog/
  // product-image.tsx): the back office's uploads (/api/images/<id>, up to 4000 px) and any raster
  // file under public/products/; the demo's SVGs are served as they are. 75 is every picture's
  // quality, 50 a shopper's saving data (SAVE_DATA_QUALITY); WebP where the browser takes it.
  images: {
    localPatterns: [
      { pathname: "/api/images/**", search: "" },
      { pathname: "/products/**", search: "" },
    ],
    qualities: [50, 75],
    formats: ["image/webp"],
  },
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
      ...CACHED_PAGES.map((source) => ({ source, headers: cachedPolicy })),
      // The cached pages answer a `Save-Data: on` request with their lighter form (the rewrites
      // above): caches between the shop and the shopper must keep both.
      ...CACHED_PAGES.map((source) => ({ source, headers: [{ key: "Vary", value: "Save-Data" }] })),
      // The page the service worker shows offline (app/[lang]/(shop)/offline/page.tsx): built once.
      { source: "/offline", headers: cachedPolicy },
    ];
  },
});

export default nextConfig;
