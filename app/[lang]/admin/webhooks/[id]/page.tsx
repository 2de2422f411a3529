import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionFlash } from "@/components/admin/action-flash";
import { Field } from "@/components/admin/field";
import { ResolveForm } from "@/components/admin/resolve-form";
import { adminDelivery } from "@/lib/orders/attention-admin";
import { requireStaff } from "@/lib/http/admin-guard";
import { luandaSecond } from "@/lib/luanda-time";
import { orderPagePath } from "@/lib/orders/order-flash";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";

// One webhook delivery in the back office, linked from the home's attention list when it matched
// no order or could not be read: what arrived, what the shop did, and "mark resolved".
export const dynamic = "force-dynamic";

type Params = Promise<{ id: string }>;
type Query = Record<string, string | string[] | undefined>;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.delivery.title, robots: { index: false, follow: false } };
}

export default async function AdminDeliveryPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<Query>;
}) {
  await requireStaff("/admin/webhooks/[id]");
  const [{ t }, { id }, query] = await Promise.all([getLang(), params, searchParams]);
  const delivery = await adminDelivery(db(), id);
  if (!delivery) notFound();
  const text = t.admin.delivery;
  const actionText = t.admin.order;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
      <Link href="/admin" className="text-sm underline">
        {text.back}
      </Link>
      <ActionFlash query={query} t={t} testId="delivery-flash" />
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 rounded-xl border border-stone-200 bg-white p-4 text-sm sm:grid-cols-2">
        <Field label={text.received}>{luandaSecond(delivery.receivedAt)}</Field>
        <Field label={text.outcome}>
          <span className="font-mono">{delivery.outcome}</span>
        </Field>
        <Field label={text.paymentStatus}>{delivery.paymentStatus ?? "—"}</Field>
        <Field label={text.externalTransactionId}>{delivery.externalTransactionId ?? "—"}</Field>
        {delivery.orderExternalTransactionId && (
          <Field label={text.order}>
            <Link href={orderPagePath(delivery.orderExternalTransactionId)} className="underline">
              {delivery.orderExternalTransactionId}
            </Link>
          </Field>
        )}
        {delivery.resolvedAt && (
          <Field label={actionText.resolve.resolved(luandaSecond(delivery.resolvedAt))}>
            <span data-testid="delivery-note" className="break-words whitespace-pre-wrap">
              {delivery.resolutionNote}
            </span>
          </Field>
        )}
      </dl>
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold">{actionText.rawBody}</h2>
        {/* As text: React escapes it, never HTML. */}
        <pre className="overflow-x-auto rounded bg-stone-100 p-2 text-xs whitespace-pre-wrap break-all">
          {delivery.rawBody}
        </pre>
      </div>
      {delivery.needsAttention && (
        <div className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4">
          <h2 className="font-semibold">{actionText.resolve.title}</h2>
          <ResolveForm action={`/api/admin/webhooks/${encodeURIComponent(delivery.id)}/resolve`} id="delivery" t={t} />
        </div>
      )}
    </section>
  );
}
