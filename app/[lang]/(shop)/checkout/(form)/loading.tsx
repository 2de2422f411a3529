import { PageLoading } from "@/components/ui/page-loading";
import { getLang } from "@/lib/http/request-lang";

// While the page reads the database. It reads the language cookie, a per-request API: only in
// segments whose pages are dynamic anyway (force-dynamic), never above `/` or `/products/*`,
// which are to be served from the prerender cache.
// The result pages have none: a loading boundary sends the 200 before the page has read the
// order, and an unknown order must answer 404.
export default async function Loading() {
  const { t } = await getLang();
  return <PageLoading t={t} />;
}
