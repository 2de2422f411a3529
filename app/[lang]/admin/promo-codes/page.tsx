import type { Metadata } from "next";
import { PromoCodeForm, PromoFlash, promoFlashOf } from "@/components/admin/promo-code-forms";
import { requireStaff } from "@/lib/http/admin-guard";
import { luandaMinute } from "@/lib/luanda-time";
import { listPromoCodes, type AdminPromoCode } from "@/lib/promotions/promo-codes-admin";
import { categoryTree } from "@/lib/catalog/categories";
import { db } from "@/lib/db/client";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { getLang } from "@/lib/http/request-lang";
import { formatAoa } from "@/lib/money";

// The back office's promo codes (lib/promotions/promo-codes-admin.ts): a table of every code with its uses
// and where it stands, a row's edit form (a <details>, no script needed) and the form for a new one.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.promoCodes.title, robots: { index: false, follow: false } };
}

const cell = "px-3 py-2 align-top";

/** "desde 2026-12-01 09:00, até 2026-12-31 23:59", Luanda time. */
function period(text: Dictionary["admin"]["promoCodes"], code: AdminPromoCode): string {
  const parts = [
    code.startsAt && text.from(luandaMinute(code.startsAt)),
    code.endsAt && text.until(luandaMinute(code.endsAt)),
  ].filter(Boolean);
  return parts.length === 0 ? text.always : parts.join(", ");
}

export default async function AdminPromoCodesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireStaff("/admin/promo-codes");
  const [{ t }, query, codes, categories] = await Promise.all([
    getLang(),
    searchParams,
    listPromoCodes(db()),
    categoryTree(db()),
  ]);
  const text = t.admin.promoCodes;
  const flash = promoFlashOf(query);
  const headers = [
    text.discount,
    text.minimum,
    text.period,
    text.uses,
    text.perPhone,
    text.categories,
    text.status,
    text.actions,
  ];
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
      <PromoFlash t={t} flash={flash} />
      <p className="text-sm text-stone-600">{text.hint}</p>

      <div id="promo-codes" role="region" aria-labelledby="codes-title" className="flex flex-col gap-3">
        <h2 id="codes-title" className="text-lg font-semibold">
          {text.listTitle}
        </h2>
        {codes.length === 0 ? (
          <p>{text.noCodes}</p>
        ) : (
          <div className="overflow-x-auto rounded-xl border border-stone-200 bg-white">
            <table data-testid="promo-codes" className="w-full text-left text-sm">
              <thead className="border-b border-stone-200 bg-stone-50">
                <tr>
                  <th scope="col" className={cell}>
                    {text.code}
                  </th>
                  {headers.map((header) => (
                    <th key={header} scope="col" className={cell}>
                      {header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {codes.map((code) => (
                  <tr
                    key={code.id}
                    id={`promo-${code.id}`}
                    data-testid="promo-code"
                    data-code={code.code}
                    data-state={code.state}
                  >
                    <th scope="row" className={`${cell} font-mono font-medium break-all`}>
                      {code.code}
                    </th>
                    <td className={`${cell} whitespace-nowrap`}>
                      {code.kind === "percent" ? text.percentOff(code.value) : formatAoa(code.value)}
                    </td>
                    <td className={`${cell} whitespace-nowrap`}>
                      {code.minSubtotalAoa > 0 ? formatAoa(code.minSubtotalAoa) : text.none}
                    </td>
                    <td className={cell}>{period(text, code)}</td>
                    <td className={cell}>{text.usesOf(code.uses, code.maxUses)}</td>
                    <td className={cell}>{code.maxUsesPerPhone ?? text.none}</td>
                    <td className={`${cell} break-words`}>
                      {code.categories.length === 0
                        ? text.allCategories
                        : code.categories.map((category) => category.name).join(", ")}
                    </td>
                    <td className={cell}>{text.states[code.state]}</td>
                    <td className={cell}>
                      <details open={flash.error !== undefined && flash.edit === code.id}>
                        <summary className="cursor-pointer underline">{text.edit(code.code)}</summary>
                        <div className="mt-2 min-w-80">
                          <PromoCodeForm t={t} code={code} categories={categories} flash={flash} />
                        </div>
                      </details>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div
          role="region"
          aria-labelledby="new-code-title"
          className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
        >
          <h3 id="new-code-title" className="font-semibold">
            {text.newCode}
          </h3>
          <PromoCodeForm t={t} categories={categories} flash={flash} />
        </div>
      </div>
    </section>
  );
}
