"use client";

import { ErrorState, errorDigest } from "@/components/ui/error-state";
import { useDocumentLang } from "@/components/ui/use-document-lang";
import { stateTexts } from "@/lib/i18n/state-texts";

/**
 * A page of the shop that failed (a database hiccup, say), inside the root layout: the header
 * stays, and the message is in the shopper's language instead of Next's English default. A
 * client component, as Next requires: the language comes from `<html lang>`, which the layout
 * set from the cookie (components/ui/use-document-lang.ts). Errors of the root layout itself are
 * app/global-error.tsx's.
 */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const t = stateTexts(useDocumentLang());
  return <ErrorState t={t} digest={errorDigest(error)} retry={retry} />;
}
