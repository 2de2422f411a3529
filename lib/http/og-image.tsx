import { ImageResponse } from "next/og";

/**
 * The pictures link previews show (Open Graph images): a PNG card per product and per category,
 * drawn by the `opengraph-image.tsx` next to each page with next/og (link previews ignore SVG,
 * which is what the demo products' own images are). Offline by design: see {@link ogText}.
 */

/** The size link previews expect (1.91:1); `opengraph-image.tsx` repeats it in its `size` export. */
export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** Characters Geist Regular (next/og's font) has: Latin, Latin-1, most of Latin Extended-A, typographic punctuation, €. */
const DRAWABLE =
  /^[\u0020-\u007E\u00A0-\u00AC\u00AE-\u0113\u0116-\u012B\u012E-\u0137\u0139-\u013E\u0141-\u0148\u014A-\u014D\u0150-\u017E\u2013\u2014\u2018-\u201A\u201C-\u201E\u2022\u2026\u20AC]$/u;

/**
 * `text` with only characters the card's font can draw: a letter it lacks loses its accent when
 * the plain letter is there ("ǹ" → "n"), white space becomes a space (the no-break space of
 * formatAoa stays), anything else is left out. The only font is the one next/og ships (Geist
 * Regular, read from node_modules): for any other character (an emoji, CJK, Arabic…) next/og would
 * fetch a font from Google Fonts or a CDN while rendering, and fail with no network.
 */
export function ogText(text: string): string {
  let drawable = "";
  for (const char of text) {
    if (DRAWABLE.test(char)) drawable += char;
    else if (/\s/u.test(char)) drawable += " ";
    else {
      const base = char.normalize("NFD").replace(/\p{M}+/gu, "");
      if (base && [...base].every((c) => DRAWABLE.test(c))) drawable += base;
    }
  }
  return drawable.replace(/ {2,}/g, " ").trim();
}

/** What a card says: the shop's name at the top, a small line above the title, the title, and one detail (a price, a count). */
export interface OgCard {
  shop: string;
  kicker?: string;
  title: string;
  detail: string;
}

const BRAND = "#9a3412"; // app/globals.css, --color-brand-700
const BRAND_LIGHT = "#fff7ed"; // --color-brand-50
const INK = "#1c1917"; // stone-900
const MUTED = "#57534e"; // stone-600

/**
 * The answer of an image route for a product or category the shop does not have (or no longer
 * sells). Returned, not thrown with notFound(): Next caches a route's notFound() for good, whatever
 * its `revalidate`, so a product restored in the back office would keep a missing image.
 */
export const imageNotFound = () => new Response("Not found", { status: 404 });

/**
 * The card as a 1200×630 PNG response. Without a Cache-Control of its own (next/og sets
 * `max-age=0`), so Next writes the route's, from its `revalidate`, as it does for the pages.
 */
export function ogCardImage(card: OgCard): ImageResponse {
  const title = ogText(card.title);
  const kicker = card.kicker ? ogText(card.kicker) : "";
  const response = new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: "64px 80px",
        background: BRAND_LIGHT,
        borderLeft: `24px solid ${BRAND}`,
        color: INK,
      }}
    >
      <div style={{ display: "flex", alignItems: "center", gap: 24, fontSize: 40, color: MUTED }}>
        {/* app/icon.svg */}
        <svg width="64" height="64" viewBox="0 0 32 32">
          <rect width="32" height="32" rx="6" fill={BRAND} />
          <path d="M10 7h4v7.5L20.5 7H25l-7 8 7.5 10H21l-5.3-7.2L14 19.7V25h-4z" fill="#fff" />
        </svg>
        {ogText(card.shop)}
      </div>
      <div style={{ display: "flex", flexDirection: "column", gap: 16 }}>
        {kicker ? <div style={{ display: "flex", fontSize: 36, color: MUTED }}>{kicker}</div> : null}
        <div
          style={{
            display: "block",
            fontSize: title.length > 60 ? 60 : 80,
            lineHeight: 1.1,
            lineClamp: 3,
            overflow: "hidden",
          }}
        >
          {title}
        </div>
      </div>
      <div style={{ display: "flex" }}>
        <div
          style={{
            display: "flex",
            padding: "12px 32px",
            borderRadius: 16,
            background: BRAND,
            color: "#fff",
            fontSize: 56,
          }}
        >
          {ogText(card.detail)}
        </div>
      </div>
    </div>,
    OG_IMAGE_SIZE,
  );
  response.headers.delete("cache-control");
  return response;
}
