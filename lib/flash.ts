/**
 * A form's outcome carried to the next page in its query string, so the shop's and the back
 * office's forms work without JavaScript: written by the action that answers the post (a
 * redirect), read back by the page, which shows only what it recognises. Pure and safe to load in
 * the browser (the cart's notice is read there); lib/http/flash.ts answers a post with it.
 */

/** A page's query as Next hands it over: a name sent more than once is an array. */
export type PageQuery = Record<string, string | string[] | undefined>;

/** The parameters of an outcome, in the order they are written; an array repeats its name, undefined is left out. */
export type FlashParams = Record<string, string | number | readonly string[] | undefined>;

/** The query string of `params` (form-encoded, as a browser's form encodes it). */
export function flashQuery(params: FlashParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const one of typeof value === "object" ? value : [value]) query.append(name, String(one));
  }
  return query.toString();
}

/** `path` (which may have a query already) with `params` added, then `hash` (`#section`). */
export function withFlash(path: string, params: FlashParams, hash = ""): string {
  const query = flashQuery(params);
  return `${path}${query ? `${path.includes("?") ? "&" : "?"}${query}` : ""}${hash}`;
}

/** The first value of a parameter sent more than once. */
export const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** One of `allowed`, from a page's query parameter, or undefined for anything else. */
export function flashOf<T extends string>(value: string | string[] | undefined, allowed: readonly T[]): T | undefined {
  const first = firstOf(value);
  return allowed.find((flag) => flag === first);
}

/**
 * The names of the parameters a part of a page reads its outcome from: what was done, why it was
 * refused and the field the refusal is about. A page with several forms gives each part its own.
 */
export interface FlashKeys {
  done: string;
  error: string;
  field: string;
  /** `#…` of the form's section, so the browser comes back to it. */
  hash?: string;
}

/** A page with one outcome: `?done=`, `?error=`, `?field=`. */
export const PAGE_FLASH: FlashKeys = { done: "done", error: "error", field: "field" };

/** An outcome a page knows: what it may have done, its refusals' codes and its fields. */
export interface FlashVocabulary<Done extends string, Error extends string, Field extends string> {
  done: readonly Done[];
  errors: readonly Error[];
  fields?: readonly Field[];
}

/** The outcome `keys` name in `query`, each part undefined unless the vocabulary has it. */
export function readFlash<Done extends string, Error extends string, Field extends string = never>(
  query: PageQuery,
  vocabulary: FlashVocabulary<Done, Error, Field>,
  keys: FlashKeys = PAGE_FLASH,
): { done?: Done; error?: Error; field?: Field } {
  return {
    done: flashOf(query[keys.done], vocabulary.done),
    error: flashOf(query[keys.error], vocabulary.errors),
    field: flashOf(query[keys.field], vocabulary.fields ?? []),
  };
}
