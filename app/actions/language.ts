"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getEnv } from "@/lib/env";
import { langCookie, parseLang } from "@/lib/i18n/languages";

/**
 * The header's language switch: store the choice and go back to the page it was made on (from
 * the Referer, path and query only, so the redirect can never leave the shop). Works without JavaScript.
 */
export async function setLanguageAction(formData: FormData): Promise<void> {
  (await cookies()).set(langCookie(parseLang(formData.get("lang")), getEnv().appUrl));
  redirect(samePagePath((await headers()).get("referer")));
}

function samePagePath(referer: string | null): string {
  if (!referer || !URL.canParse(referer)) return "/";
  const { pathname, searchParams } = new URL(referer);
  // "//host/…" would be read as another site.
  if (pathname.startsWith("//")) return "/";
  // A cart form's notice was about the last action, not this one.
  searchParams.delete("notice");
  searchParams.delete("quantity");
  const query = searchParams.toString();
  return query ? `${pathname}?${query}` : pathname;
}
