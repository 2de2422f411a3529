"use client";

import { useSyncExternalStore } from "react";
import { DEFAULT_LANG, langOfHtmlLang, type Lang } from "@/lib/i18n/languages";

/**
 * The shopper's language for a client component that gets no `lang` prop (app/error.tsx): the
 * `<html lang>` the root layout wrote from the `lang` cookie, which is httpOnly and so not
 * readable here. On the server, and while hydrating, the default: React then renders again with
 * the document's value, without a hydration mismatch.
 */
export function useDocumentLang(): Lang {
  return useSyncExternalStore(subscribe, readDocumentLang, () => DEFAULT_LANG);
}

/** The layout sets `<html lang>` once per document: nothing to subscribe to. */
const subscribe = () => () => {};

const readDocumentLang = () => langOfHtmlLang(document.documentElement.lang);
