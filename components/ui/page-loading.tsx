import { Spinner } from "@/components/ui/spinner";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * What a page shows while the server is still reading it (the loading.tsx files): a status that
 * says so in the shopper's language, over a few grey bars where the content will go. The bars
 * are decoration; assistive tech reads the status alone.
 */
export function PageLoading({ t }: { t: Dictionary }) {
  return (
    <section data-testid="page-loading" className="mx-auto flex max-w-2xl flex-col gap-6">
      <p role="status" className="flex items-center gap-3 text-stone-600">
        <Spinner />
        {t.states.loading}
      </p>
      <div aria-hidden="true" className="flex animate-pulse flex-col gap-3">
        <div className="h-7 w-2/3 rounded-md bg-stone-200" />
        <div className="h-4 w-full rounded-md bg-stone-200" />
        <div className="h-4 w-5/6 rounded-md bg-stone-200" />
        <div className="h-24 w-full rounded-xl bg-stone-100" />
      </div>
    </section>
  );
}
