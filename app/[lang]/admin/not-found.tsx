import { backOfficeTexts } from "@/lib/i18n/back-office";
import { getLang } from "@/lib/http/request-lang";
import { stateTexts } from "@/lib/i18n/state-texts";

// A back-office page whose subject does not exist (an order, a product, a category that is not
// there): the shop's words for a missing page, inside the back office's frame, leading back home.
export default async function AdminNotFound() {
  const { lang } = await getLang();
  const { notFound } = stateTexts(lang);
  return (
    <section data-testid="not-found" className="flex flex-col items-start gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{notFound.title}</h1>
      <p className="text-stone-600">{notFound.body}</p>
      <a href="/admin" className="text-brand-700 underline hover:no-underline">
        {backOfficeTexts(lang).shell.home}
      </a>
    </section>
  );
}
