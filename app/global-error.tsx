"use client";

import { ErrorState, errorDigest } from "@/components/ui/error-state";
import { DEFAULT_LANG, htmlLang, LANGS } from "@/lib/i18n/languages";
import { STATE_TEXTS } from "@/lib/i18n/state-texts";
import "./globals.css";

/**
 * The root layout itself failed (its environment check, say): this replaces
 * it, so it brings its own <html> and <body>, and the stylesheet (an external file: nothing
 * inline for the Content-Security-Policy to weigh, no script of its own).
 *
 * Both languages, Portuguese first, English below, rather than a guess. The shopper's choice is
 * the httpOnly `lang` cookie, which only the server reads; the `<html lang>` that carries it
 * came from the very layout that failed; and the browser's own language (navigator) is not the
 * choice made in the shop (an Angolan shopper with an English browser who picked Portuguese),
 * would differ between the server's render and the browser's, and is absent on the server. A
 * page in both, in the same order everywhere, is right for everyone and renders the same on
 * both sides. `<html lang>` is the default's; the English half says it is English. Its texts are
 * the error pages' alone (lib/i18n/state-texts.ts): Next loads this file's code on every page.
 */

export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = errorDigest(error);
  return (
    <html lang={htmlLang(DEFAULT_LANG)}>
      <body className="min-h-screen bg-stone-50 font-sans text-stone-900 antialiased">
        <title>{LANGS.map((lang) => STATE_TEXTS[lang].states.errorTitle).join(" · ")}</title>
        <main data-testid="global-error" className="mx-auto flex max-w-2xl flex-col gap-8 px-4 py-12">
          {LANGS.map((lang, index) => (
            // One page, one main heading: the second language's title is a level below.
            <ErrorState
              key={lang}
              t={STATE_TEXTS[lang]}
              digest={digest}
              retry={retry}
              lang={htmlLang(lang)}
              heading={index === 0 ? "h1" : "h2"}
            />
          ))}
        </main>
      </body>
    </html>
  );
}
