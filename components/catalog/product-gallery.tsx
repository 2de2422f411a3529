import { pictureProps, ProductImage } from "@/components/catalog/product-image";
import type { GalleryImage } from "@/lib/catalog/gallery";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * A product's images: the chosen one large, the others as thumbnails below. The thumbnails are a
 * group of radio buttons (visually, the pictures themselves), so the gallery needs no JavaScript
 * and is operated with the keyboard as every radio group is: Tab reaches the chosen thumbnail, the
 * arrow keys choose another, and the large image follows through CSS (app/globals.css,
 * `[data-gallery]`). The page stays one cached page for every shopper. Each thumbnail carries its
 * image's path (`data-path`): the option picker shows a variant's image by choosing its thumbnail.
 * A product without images shows the placeholder of components/catalog/product-image.tsx in its place.
 *
 * With `saveData` the thumbnails are numbers, not pictures (they only repeat the large one's, so
 * they are decorative: their radio's name says which image it shows), and the large image is one
 * smaller file (components/catalog/product-image.tsx), still sharp enough to see the product.
 */
export function ProductGallery({
  t,
  images,
  productId,
  productName,
  saveData = false,
}: {
  t: Dictionary;
  images: readonly GalleryImage[];
  productId: string;
  productName: string;
  saveData?: boolean;
}) {
  const group = `gallery-${productId}`;
  if (images.length === 0)
    return (
      <ProductImage
        src={null}
        alt=""
        name={productName}
        width={640}
        height={480}
        className="aspect-[4/3] w-full rounded-xl border border-stone-200"
      />
    );
  const focus =
    "peer-checked:border-brand-700 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-stone-900";
  return (
    <div data-gallery className="flex flex-col gap-3">
      {images.length > 1 ? (
        <fieldset className="order-2">
          <legend className="sr-only">{t.gallery.label}</legend>
          <div className="flex flex-wrap gap-2">
            {images.map((image, i) => (
              <label key={`${image.path}-${i}`} className="relative cursor-pointer">
                <input
                  type="radio"
                  name={group}
                  value={String(i)}
                  data-path={image.path}
                  defaultChecked={i === 0}
                  aria-label={`${t.gallery.showImage(i + 1, images.length)}: ${image.alt}`}
                  className="peer sr-only"
                />
                {saveData ? (
                  <span
                    aria-hidden="true"
                    className={`flex min-h-11 min-w-11 items-center justify-center rounded-md border-2 border-stone-300 bg-white px-3 text-sm font-medium ${focus}`}
                  >
                    {i + 1}
                  </span>
                ) : (
                  <img
                    {...pictureProps({
                      src: image.path,
                      alt: "",
                      width: 96,
                      height: 72,
                      className: `aspect-[4/3] w-20 rounded-md border-2 border-transparent bg-stone-100 object-cover ${focus}`,
                    })}
                  />
                )}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="order-1">
        {images.map((image, i) => (
          <img
            key={`${image.path}-${i}`}
            data-slide={i}
            {...pictureProps({
              src: image.path,
              alt: image.alt,
              width: 640,
              height: 480,
              sizes: "(min-width: 1152px) 544px, (min-width: 768px) 50vw, 100vw",
              priority: i === 0,
              saveData,
              className: "aspect-[4/3] w-full rounded-xl border border-stone-200 bg-stone-100 object-cover",
            })}
          />
        ))}
      </div>
    </div>
  );
}
