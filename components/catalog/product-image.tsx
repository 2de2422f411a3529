import Image from "next/image";

/**
 * A product's picture, or for a product without one (a catalogue imported before its photos) a
 * placeholder drawn in the page: a neutral tile with a picture mark and the product's initial,
 * the same size as the picture would be. Plain markup and Tailwind: no JavaScript, no request.
 *
 * The placeholder is decorative (hidden from screen readers): it shows nothing the product's name
 * beside it does not say, and announcing "image: Café" for a picture that is not there would
 * mislead. A real picture keeps the text alternative it is given.
 */
export function ProductImage({
  src,
  alt,
  name,
  width,
  height,
  priority = false,
  size = "large",
  className,
}: {
  src: string | null;
  alt: string;
  /** The product's: its first letter is drawn on the placeholder. */
  name: string;
  width: number;
  height: number;
  priority?: boolean;
  /** "small" for a thumbnail (the cart's line): the initial alone, smaller. */
  size?: "large" | "small";
  /** Its size and shape; the same for the picture and the placeholder. */
  className: string;
}) {
  if (src !== null)
    return <Image src={src} alt={alt} width={width} height={height} priority={priority} className={className} />;
  const initial = [...name.trim()][0]?.toLocaleUpperCase("pt") ?? "";
  return (
    <div
      aria-hidden="true"
      data-testid="image-placeholder"
      className={`${className} flex flex-col items-center justify-center gap-2 bg-gradient-to-br from-stone-100 to-stone-200 text-stone-400`}
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
