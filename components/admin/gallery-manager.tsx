import Image from "next/image";
import { readFlash, type PageQuery } from "@/lib/flash";
import type { AdminGalleryImage } from "@/lib/catalog/gallery-admin";
import {
  GALLERY_DONE,
  GALLERY_ERRORS,
  GALLERY_FIELDS,
  GALLERY_FLASH,
  type GalleryField,
} from "@/lib/catalog/gallery-rules";
import { GALLERY_LIMITS } from "@/lib/catalog/gallery";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";
import { buttonClass, Field, fieldClass } from "./product-form";

/** A product's gallery on its back-office page, and the message of its last outcome. */

/** The outcome of the last gallery form, from its redirect's `?gallery=`, `?galleryError=` and `?galleryField=`. */
export const galleryFlashOf = (query: PageQuery) =>
  readFlash(query, { done: GALLERY_DONE, errors: GALLERY_ERRORS, fields: GALLERY_FIELDS }, GALLERY_FLASH);

const secondaryButton =
  "rounded-md border border-stone-400 px-3 py-1.5 text-sm font-medium text-stone-900 hover:bg-stone-100";

/**
 * A product's images on its back-office page (lib/catalog/gallery-admin.ts), each change a small form of
 * its own that works without JavaScript: every image's text alternative, up and down, remove (not
 * the last one), and a form to add an image with its text. Each form names its image by id, so a
 * change made meanwhile by someone else is never undone silently.
 */
export function GalleryManager({
  t,
  productId,
  gallery,
  flash,
}: {
  t: Dictionary;
  productId: string;
  gallery: AdminGalleryImage[];
  flash: ReturnType<typeof galleryFlashOf>;
}) {
  const text = t.admin.gallery;
  const base = `/api/admin/products/${productId}/gallery`;
  const count = gallery.length;
  const fieldLabel = (field: GalleryField) => ({ image: text.file, alt: text.alt, direction: text.direction })[field];
  return (
    <section
      id="gallery"
      aria-labelledby="gallery-title"
      className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4"
    >
      <h2 id="gallery-title" className="text-lg font-semibold">
        {text.title}
      </h2>
      <p className="text-sm text-stone-600">
        {text.hint} {text.count(count, GALLERY_LIMITS.imagesMax)}
      </p>
      {flash.error ? (
        <Flash kind="error" testId="gallery-flash">
          {text.errors[flash.error]}
          {flash.field && ` ${text.fieldError(fieldLabel(flash.field))}`}
        </Flash>
      ) : (
        flash.done && (
          <Flash kind="done" testId="gallery-flash">
            {text.done[flash.done]}
          </Flash>
        )
      )}

      <ol className="flex flex-col divide-y divide-stone-100">
        {gallery.map((image, index) => {
          const number = index + 1;
          return (
            <li
              key={image.id}
              data-testid="gallery-image"
              data-image-id={image.id}
              className="flex flex-col gap-3 py-3 sm:flex-row"
            >
              <Image
                src={image.path}
                alt={image.alt}
                width={160}
                height={120}
                className="aspect-[4/3] w-40 shrink-0 rounded-md border border-stone-200 bg-stone-100 object-cover"
              />
              <div className="flex min-w-0 flex-1 flex-col gap-2">
                <h3 className="text-sm font-medium">
                  {text.image(number, count)}
                  {index === 0 && ` · ${text.first}`}
                </h3>
                <form method="post" action={`${base}/${image.id}`} className="flex flex-col gap-2">
                  <Field label={text.altOf(number)} htmlFor={`gallery-alt-${image.id}`}>
                    <input
                      id={`gallery-alt-${image.id}`}
                      name="alt"
                      required
                      maxLength={GALLERY_LIMITS.altMax}
                      defaultValue={image.alt}
                      className={fieldClass}
                    />
                  </Field>
                  <div>
                    <button type="submit" className={secondaryButton}>
                      {text.saveAlt}
                      <span className="sr-only">{text.textOfImage(number)}</span>
                    </button>
                  </div>
                </form>
                <div className="flex flex-wrap gap-2">
                  {count > 1 && (
                    <form method="post" action={`${base}/${image.id}/move`} className="flex flex-wrap gap-2">
                      {index > 0 && (
                        <button type="submit" name="direction" value="up" className={secondaryButton}>
                          {text.moveUp}
                          <span className="sr-only">{text.ofImage(number)}</span>
                        </button>
                      )}
                      {index < count - 1 && (
                        <button type="submit" name="direction" value="down" className={secondaryButton}>
                          {text.moveDown}
                          <span className="sr-only">{text.ofImage(number)}</span>
                        </button>
                      )}
                    </form>
                  )}
                  {count > 1 && (
                    <form method="post" action={`${base}/${image.id}/delete`}>
                      <button type="submit" className={secondaryButton}>
                        {text.remove}
                        <span className="sr-only">{text.ofImage(number)}</span>
                      </button>
                    </form>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ol>

      {count < GALLERY_LIMITS.imagesMax ? (
        <form
          method="post"
          action={base}
          encType="multipart/form-data"
          aria-labelledby="gallery-add-title"
          className="flex flex-col gap-4 border-t border-stone-200 pt-4"
        >
          <h3 id="gallery-add-title" className="font-semibold">
            {text.addTitle}
          </h3>
          <Field label={text.file} htmlFor="gallery-add-image" hint={text.fileHint}>
            <input
              id="gallery-add-image"
              name="image"
              type="file"
              accept="image/png,image/jpeg,image/webp"
              required
              aria-describedby="gallery-add-image-hint"
              className="w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-stone-200 file:px-3 file:py-2"
              {...(flash.field === "image" ? { "aria-invalid": true } : {})}
            />
          </Field>
          <Field label={text.alt} htmlFor="gallery-add-alt" hint={t.admin.products.imageAltHint}>
            <input
              id="gallery-add-alt"
              name="alt"
              required
              maxLength={GALLERY_LIMITS.altMax}
              aria-describedby="gallery-add-alt-hint"
              className={fieldClass}
            />
          </Field>
          <div>
            <button type="submit" className={buttonClass}>
              {text.add}
            </button>
          </div>
        </form>
      ) : (
        <p className="text-sm">{text.full(GALLERY_LIMITS.imagesMax)}</p>
      )}
    </section>
  );
}
