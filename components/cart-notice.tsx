import type { Dictionary } from "@/lib/i18n/dictionaries";
import { cartNoticeMessage, readCartNotice } from "@/lib/i18n/notices";

/** The outcome of the last cart form, from the page's query (see lib/i18n/notices.ts). */
export function CartNotice({ t, query }: { t: Dictionary; query: Record<string, string | string[] | undefined> }) {
  const notice = readCartNotice(query);
  if (!notice) return null;
  const error = notice.tone === "error";
  return (
    <p
      role={error ? "alert" : "status"}
      className={`mb-6 rounded-lg border px-4 py-3 text-sm ${
        error ? "border-red-200 bg-red-50 text-red-800" : "border-emerald-200 bg-emerald-50 text-emerald-800"
      }`}
    >
      {cartNoticeMessage(t, notice)}
    </p>
  );
}
