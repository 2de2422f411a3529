import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionFlash } from "@/components/admin/action-flash";
import { ResolveForm } from "@/components/admin/resolve-form";
import { FulfilmentSection } from "@/components/admin/orders/fulfilment-section";
import { OrderHeader } from "@/components/admin/orders/order-header";
import { OrderJobs } from "@/components/admin/orders/order-jobs";
import { LineList } from "@/components/admin/orders/order-parts";
import { OrderTimeline } from "@/components/admin/orders/order-timeline";
import { RefundsSection } from "@/components/admin/orders/refunds-section";
import { OrderDeliveryDetails } from "@/components/orders/order-delivery";
import { requireStaff } from "@/lib/http/admin-guard";
import { orderPagePath } from "@/lib/orders/order-flash";
import { adminOrderPage } from "@/lib/orders/order-page-admin";
import { db } from "@/lib/db/client";
import { backOfficeTexts } from "@/lib/i18n/back-office";
import { getLang } from "@/lib/http/request-lang";
import { customerMessage } from "@/lib/orders/customer-message";
import { customerWhatsappDigits, whatsappLink } from "@/lib/whatsapp";
import { paidAfterCancelTexts } from "@/lib/i18n/paid-after-cancel-texts";
import { fulfilAfterCancelShortfall } from "@/lib/orders/fulfil-after-cancel-admin";
import { decidesPaidAfterCancel, PaidAfterCancelActions } from "@/components/admin/paid-after-cancel-actions";

// One order in the back office: its header, lines, jobs and history (lib/orders/timeline-admin.ts),
// the buttons of lib/http/order-actions.ts, and for a role that may record them its refunds
// (lib/orders/order-page-admin.ts). Its sections are components/admin/orders/*.
export const dynamic = "force-dynamic";

type Params = Promise<{ externalTransactionId: string }>;
type Query = Record<string, string | string[] | undefined>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const [{ t }, { externalTransactionId }] = await Promise.all([getLang(), params]);
  return { title: t.admin.order.title(externalTransactionId), robots: { index: false, follow: false } };
}

const buttonClass = "rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600";

export default async function AdminOrderPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<Query>;
}) {
  const actor = await requireStaff("/admin/orders/[externalTransactionId]");
  const [{ t, lang }, { externalTransactionId }, query] = await Promise.all([getLang(), params, searchParams]);
  const page = await adminOrderPage(db(), externalTransactionId, actor.role);
  if (!page) notFound();
  const { order, lines, jobs, timeline, refunds } = page;
  const text = t.admin.order;
  const words = backOfficeTexts(lang);
  const actionPath = orderPagePath(order.externalTransactionId).replace("/admin/", "/api/admin/");
  const customerDigits = order.customerPhone ? customerWhatsappDigits(order.customerPhone) : null;
  const decisionText = paidAfterCancelTexts(lang);
  // An order paid after its cancellation, still to be decided, by a person who may decide it.
  const decides =
    order.needsAttention &&
    order.status === "CAN" &&
    order.paidAfterCancelAt !== null &&
    decidesPaidAfterCancel(actor.role);

  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight break-all">{text.title(order.externalTransactionId)}</h1>
      <Link href="/admin/orders" className="text-sm underline">
        {text.back}
      </Link>

      <ActionFlash query={query} t={t} testId="order-flash" />

      <OrderHeader order={order} t={t} />

      {customerDigits ? (
        <a
          href={whatsappLink(
            customerDigits,
            customerMessage({
              externalTransactionId: order.externalTransactionId,
              status: order.status,
              fulfilmentState: order.delivery.fulfilmentState,
            }),
          )}
          target="_blank"
          rel="noopener"
          data-testid="customer-whatsapp"
          className="self-start text-sm underline"
        >
          {text.message.link}
        </a>
      ) : (
        order.customerPhone && <p className="text-sm text-stone-600">{text.message.noPhone}</p>
      )}

      <OrderDeliveryDetails delivery={order.delivery} t={t} showEmail />

      {order.status === "CON" && <FulfilmentSection order={order} actionPath={actionPath} t={t} />}

      {order.needsAttention && (
        <div className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4">
          <h2 className="font-semibold">{text.resolve.title}</h2>
          {!order.attentionReason && <p className="text-sm">{text.resolve.creationFailed}</p>}
          {decides && (
            <PaidAfterCancelActions
              externalTransactionId={order.externalTransactionId}
              amountAoa={order.amountAoa}
              idPrefix="decide"
              intro
              text={decisionText.paidAfterCancel}
              short={await fulfilAfterCancelShortfall(db(), order.externalTransactionId)}
            />
          )}
          <ResolveForm action={`${actionPath}/resolve`} id="order" t={t} />
        </div>
      )}

      {order.status === "PEN" && (
        <form method="post" action={`${actionPath}/refresh`} className="flex flex-wrap items-center gap-3">
          <h2 className="sr-only">{text.actions}</h2>
          <button type="submit" className={buttonClass}>
            {text.askService}
          </button>
        </form>
      )}

      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">{text.lines}</h2>
        <LineList lines={lines} />
      </div>

      {refunds && <RefundsSection refunds={refunds} query={query} actionPath={actionPath} words={words.refunds} />}

      {jobs.length > 0 && <OrderJobs jobs={jobs} actionPath={actionPath} t={t} />}

      <OrderTimeline timeline={timeline} t={t} words={words} />
    </section>
  );
}
