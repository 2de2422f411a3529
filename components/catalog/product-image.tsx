import { getImageProps } from "next/image";

/**
 * A product's picture, or for a product without one (a catalogue imported before its photos) a
 * placeholder drawn in the page: a neutral tile with a picture mark and the product's initial,
 * the same size as the picture would be. Plain markup and Tailwind: no JavaScript, no request.
 *
 * The picture is a plain `<img>` with the attributes next/image would give it (getImageProps, on
 * the server): the same resized files from Next's image optimizer (next.config.mjs `images`; the
 * demo's SVGs are served as they are), without the Image component's client JavaScript, which a
 * listing of 24 cards does not need. `sizes` says how wide it is drawn, so a phone downloads a
 * file for its screen, not the desktop's.
 *
 * With `saveData` (the shopper's browser sent `Save-Data: on`, docs/storefront.md) the picture is
 * one file, `saveDataWidth` pixels wide at {@link SAVE_DATA_QUALITY}, whatever the screen's
 * density: softer on a sharp screen, a fraction of the bytes.
 *
 * The placeholder is decorative (hidden from screen readers): it shows nothing the product's name
 * beside it does not say, and announcing "image: Café" for a picture that is not there would
 * mislead. A real picture keeps the text alternative it is given.
 */

/** The quality of a picture for a shopper saving data (next.config.mjs lists it in `images.qualities`). */
export const SAVE_DATA_QUALITY = 50;

export interface PictureProps {
  src: string;
  alt: string;
  width: number;
  height: number;
  className: string;
  /** How wide it is drawn, as the `sizes` attribute says it; without it, `width` CSS pixels. */
  sizes?: string;
  /** The first pictures of a page (its largest paint): fetched first, never lazily. */
  priority?: boolean;
  /** The shopper saves data: one smaller, lower-quality file. */
  saveData?: boolean;
  /** Its width in pixels when the shopper saves data; `width` when not given. */
  saveDataWidth?: number;
}

/** The `<img>` attributes of a product's picture (also the gallery's, components/catalog/product-gallery.tsx). */
export function pictureProps({
  src,
  alt,
  width,
  height,
  className,
  sizes,
  priority = false,
  saveData = false,
  saveDataWidth = width,
}: PictureProps) {
  const eager = priority ? ({ loading: "eager", fetchPriority: "high" } as const) : {};
  if (!saveData) return getImageProps({ src, alt, width, height, sizes, className, ...eager }).props;
  const { props } = getImageProps({
    src,
    alt,
    width: saveDataWidth,
    height: Math.round((height * saveDataWidth) / width),
    quality: SAVE_DATA_QUALITY,
    className,
    ...eager,
  });
  // Without `sizes`, Next offers the file for a 1x screen and one twice as wide for 2x ("… 1x,
  // … 2x"): the shopper saving data gets the first on any screen. An image served as it is (an
  // SVG) has no srcSet.
  const oneX = props.srcSet?.split(", ")[0]?.replace(/ 1x$/, "");
  return { ...props, srcSet: undefined, src: oneX ?? props.src };
}

export function ProductImage({
  src,
  alt,
  name,
  size = "large",
  ...picture
}: Omit<PictureProps, "src"> & {
  src: string | null;
  /** The product's: its first letter is drawn on the placeholder. */
  name: string;
  /** "small" for a thumbnail (the cart's line): the initial alone, smaller. */
  size?: "large" | "small";
}) {
  if (src !== null) return <img {...pictureProps({ src, alt, ...picture })} />;
  const initial = [...name.trim()][0]?.toLocaleUpperCase("pt") ?? "";
  return (
    <div
      aria-hidden="true"
      data-testid="image-placeholder"
      className={`${picture.className} flex flex-col items-center justify-center gap-2 bg-gradient-to-br from-stone-100 to-stone-200 text-stone-400`}
    >
      {size === "large" ? (
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.5" className="h-12 w-12">
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="8.5" cy="9.5" r="1.5" />
          <path d="m21 16-5-5-9 9" />
        </svg>
      ) : null}
      <span
        className={`flex items-center justify-center rounded-full bg-white/70 font-semibold text-stone-600 ring-1 ring-stone-300 ${
          size === "large" ? "h-14 w-14 text-2xl" : "h-8 w-8 text-sm"
        }`}
      >
        {initial}
      </span>
    </div>
  );
}
