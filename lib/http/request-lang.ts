import "server-only";
import { cookies } from "next/headers";
import { dictionary, type Dictionary } from "../i18n/dictionaries";
import { LANG_COOKIE, parseLang, type Lang } from "../i18n/languages";

/** The shopper's language from the `lang` cookie (Portuguese when absent or unknown) and its dictionary. */
export async function getLang(): Promise<{ lang: Lang; t: Dictionary }> {
  const lang = parseLang((await cookies()).get(LANG_COOKIE)?.value);
  return { lang, t: dictionary(lang) };
}
