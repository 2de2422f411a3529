"use client";

import { ErrorState, errorDigest } from "@/components/ui/error-state";
import { useDocumentLang } from "@/components/ui/use-document-lang";
import { backOfficeTexts } from "@/lib/i18n/back-office";
import { stateTexts } from "@/lib/i18n/state-texts";

/**
 * A back-office page that failed (its sessions or the database unreadable for a moment), inside
 * the back office's frame: the shop's words and "try again" (app/[lang]/(shop)/error.tsx), and a
 * way back to the back office's home. Errors of the frame itself are app/global-error.tsx's.
 */
export default function AdminError({ error, retry }: { error: unknown; retry: () => void }) {
  const lang = useDocumentLang();
  return (
    <ErrorState
      t={stateTexts(lang)}
      digest={errorDigest(error)}
      retry={retry}
      home={{ href: "/admin", label: backOfficeTexts(lang).shell.home }}
    />
  );
}
