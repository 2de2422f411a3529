import type { StateTexts } from "@/lib/i18n/state-texts";

/** The page a failed render shows instead (app/error.tsx, app/global-error.tsx), and the error's digest. */

/** The `digest` Next gives an error thrown on the server (the same id is in the server's log), if any. */
export function errorDigest(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("digest" in error)) return undefined;
  const { digest } = error;
  return typeof digest === "string" && digest !== "" ? digest : undefined;
}

/**
 * A page that failed (app/error.tsx): what happened in the shopper's language, "try again"
 * (Next's `retry`: the segment is read from the server again, so a database hiccup that has
 * passed gives the page back) and a way home. The home link is a plain anchor: a full load
 * starts the browser's state afresh, whatever broke it. app/global-error.tsx shows it once per
 * language, marking the second one's language and heading it a level below.
 */
export function ErrorState({
  t,
  digest,
  retry,
  lang,
  heading: Heading = "h1",
  home = { href: "/", label: t.states.home },
}: {
  t: StateTexts;
  digest?: string;
  retry: () => void;
  /** When the section's language differs from the page's. */
  lang?: string;
  heading?: "h1" | "h2";
  /** Where "home" leads: the shop's catalogue unless the page is another home's (the back office's). */
  home?: { href: string; label: string };
}) {
  return (
    <section lang={lang} data-testid="error-state" className="flex flex-col items-start gap-3">
      <Heading className="text-2xl font-semibold tracking-tight">{t.states.errorTitle}</Heading>
      <p className="text-stone-600">{t.states.errorBody}</p>
      {digest && <p className="font-mono text-sm text-stone-500">{t.states.errorCode(digest)}</p>}
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="button"
          onClick={retry}
          className="rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white hover:bg-stone-700"
        >
          {t.states.tryAgain}
        </button>
        <a href={home.href} className="text-brand-700 hover:underline">
          {home.label}
        </a>
      </div>
    </section>
  );
}
