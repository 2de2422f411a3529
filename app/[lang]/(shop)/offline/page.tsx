import type { Metadata } from "next";
import { ForgetThisPhone } from "@/components/offline/forget-this-phone";
import { KeptOrderPages, RetryButton } from "@/components/offline/kept-order-pages";
import { SLOT } from "@/components/offline/kept-order-texts";
import { EnvError, getEnv } from "@/lib/env";
import { langParams, routeLang } from "@/lib/http/route-lang";
import { ORDER_PAGE_KEPT_DAYS } from "@/lib/offline/offline-rules";

// /offline: what the service worker (app/sw.ts) shows in place of a page it cannot load without
// the internet. Precached by the worker, so built once per language and read by no cookie; its
// policy, without a nonce, comes from next.config.mjs. It names what still works: the order
// pages this browser kept (read from the worker's cache by the browser itself), and offers to
// forget them ("Esquecer este telefone").
export const dynamic = "force-static";

/**
 * Both languages, built ahead when the build has the shop's settings. A build without them (a
 * Docker image's) builds none: the page is rendered on its first request, and kept from then on.
 */
export function generateStaticParams() {
  try {
    getEnv();
  } catch (error) {
    if (error instanceof EnvError) return [];
    throw error;
  }
  return langParams();
}

export async function generateMetadata({ params }: { params: Promise<{ lang: string }> }): Promise<Metadata> {
  const { t } = await routeLang(params);
  return { title: t.offline.title, robots: { index: false } };
}

export default async function OfflinePage({ params }: { params: Promise<{ lang: string }> }) {
  const { t } = await routeLang(params);
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <div className="flex flex-col items-start gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{t.offline.title}</h1>
        <p className="text-stone-600">{t.offline.body}</p>
        <RetryButton label={t.offline.retry} />
      </div>
      <section
        aria-labelledby="kept-order-pages"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="kept-order-pages" className="text-lg font-semibold">
          {t.offline.keptTitle}
        </h2>
        <p className="text-sm text-stone-600">{t.offline.keptIntro(ORDER_PAGE_KEPT_DAYS)}</p>
        <KeptOrderPages
          texts={{
            locale: t.locale,
            none: t.offline.keptNone,
            order: t.order.title(SLOT),
            kinds: t.offline.pageKinds,
            savedAt: t.offline.savedAt(SLOT),
          }}
        />
      </section>
      <ForgetThisPhone texts={t.offline.forget} />
    </div>
  );
}
