import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionFlash } from "@/components/admin/action-flash";
import { Field } from "@/components/admin/field";
import { ResolveForm } from "@/components/admin/resolve-form";
import { OrderDeliveryDetails } from "@/components/orders/order-delivery";
import { luandaSecond } from "@/lib/luanda-time";
import { requireStaff } from "@/lib/http/admin-guard";
import { orderPagePath } from "@/lib/orders/order-flash";
import {
  adminOrderDetail,
  type AdminOrderJob,
  type AdminOrderLine,
  type StaffTimelineEvent,
  type TimelineEvent,
} from "@/lib/orders/timeline-admin";
import { db } from "@/lib/db/client";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { getLang } from "@/lib/http/request-lang";
import { formatAoa } from "@/lib/money";
import { MAX_FULFILMENT_NOTE } from "@/lib/orders/fulfilment";
import { lineName } from "@/lib/catalog/variants";
import { customerMessage } from "@/lib/orders/customer-message";
import { receiptNumber } from "@/lib/orders/receipt";
import { customerWhatsappDigits, whatsappLink } from "@/lib/whatsapp";
import { paidAfterCancelTexts } from "@/lib/i18n/paid-after-cancel-texts";
import { fulfilAfterCancelShortfall } from "@/lib/orders/fulfil-after-cancel-admin";
import {
  decidesPaidAfterCancel,
  PaidAfterCancelActions,
  RefundOutcome,
} from "@/components/admin/paid-after-cancel-actions";

// One order in the back office: its header, lines, jobs and history (lib/orders/timeline-admin.ts),
// and the buttons of lib/http/order-actions.ts.
export const dynamic = "force-dynamic";

type Params = Promise<{ externalTransactionId: string }>;
type Query = Record<string, string | string[] | undefined>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const [{ t }, { externalTransactionId }] = await Promise.all([getLang(), params]);
  return { title: t.admin.order.title(externalTransactionId), robots: { index: false, follow: false } };
}

const buttonClass = "rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600";
const smallButtonClass = "rounded-md bg-brand-700 px-3 py-1 text-sm font-medium text-white hover:bg-brand-600";

export default async function AdminOrderPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<Query>;
}) {
  const actor = await requireStaff("/admin/orders/[externalTransactionId]");
  const [{ t, lang }, { externalTransactionId }, query] = await Promise.all([getLang(), params, searchParams]);
  const detail = await adminOrderDetail(db(), externalTransactionId);
  if (!detail) notFound();
  const { order, lines, jobs, timeline } = detail;
  const text = t.admin.order;
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
      <RefundOutcome query={query} text={decisionText.refundFlash} />

      <dl
        data-testid="order-header"
        className="grid grid-cols-1 gap-x-6 gap-y-3 rounded-xl border border-stone-200 bg-white p-4 text-sm sm:grid-cols-2"
      >
        <Field label={text.status}>{t.order.status[order.status]}</Field>
        <Field label={text.amount}>{formatAoa(order.amountAoa)}</Field>
        <Field label={text.customer}>{order.customerName ?? "—"}</Field>
        <Field label={text.phone}>{order.customerPhone ?? "—"}</Field>
        <Field label={text.nif}>
          <span data-testid="order-nif" className="font-mono">
            {order.customerNif ?? "—"}
          </span>
        </Field>
        {order.invoiceNumber !== null && (
          <Field label={text.receipt}>
            {/* The shopper's receipt page: the back office opens the same document the shopper prints. */}
            <Link
              href={`/orders/${order.externalTransactionId}/receipt`}
              data-testid="order-receipt"
              className="underline"
            >
              {t.receipt.openAdmin(receiptNumber(order.invoiceNumber))}
            </Link>
          </Field>
        )}
        <Field label={text.referenceNumber}>{order.referenceNumber ?? "—"}</Field>
        <Field label={text.paymentReference}>
          {order.paymentReference ?? "—"}
          {order.entityNumber && ` (${text.entity} ${order.entityNumber})`}
        </Field>
        <Field label={text.created}>{luandaSecond(order.createdAt)}</Field>
        <Field label={text.finalized}>{order.finalizedAt ? luandaSecond(order.finalizedAt) : "—"}</Field>
        {order.cancelReason && <Field label={text.cancelReason}>{order.cancelReason}</Field>}
        {order.attentionReason && (
          <Field label={text.attention}>
            <span data-testid="attention">{order.attentionReason}</span>
            {order.paidAfterCancelAt && (
              <span className="block text-stone-600">
                {text.paidAfterCancel}: {luandaSecond(order.paidAfterCancelAt)}
              </span>
            )}
          </Field>
        )}
        {order.attentionResolvedAt && (
          <Field label={text.resolve.resolved(luandaSecond(order.attentionResolvedAt))}>
            <span data-testid="attention-note" className="break-words whitespace-pre-wrap">
              {order.attentionNote}
            </span>
          </Field>
        )}
      </dl>

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

      {order.status === "CON" && (
        <div
          data-testid="order-fulfilment"
          className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
        >
          <h2 className="text-lg font-semibold">{text.fulfilment.title}</h2>
          <p className="text-sm">
            {text.fulfilment.current}:{" "}
            <strong data-testid="fulfilment-state">
              {t.fulfilment.states[order.delivery.fulfilmentState ?? "to_prepare"]}
            </strong>
            {order.fulfilmentUpdatedAt && (
              <span className="text-stone-600"> · {luandaSecond(order.fulfilmentUpdatedAt)}</span>
            )}
          </p>
          {order.nextFulfilmentSteps.length === 0 ? (
            <p className="text-sm text-stone-600">{text.fulfilment.finished}</p>
          ) : (
            <form method="post" action={`${actionPath}/fulfilment`} className="flex flex-col gap-2">
              <label htmlFor="fulfilment-note" className="text-sm font-medium">
                {text.fulfilment.note}
              </label>
              <input
                id="fulfilment-note"
                name="note"
                type="text"
                maxLength={MAX_FULFILMENT_NOTE}
                aria-describedby="fulfilment-note-hint"
                className="rounded-md border border-stone-300 bg-white px-3 py-2 text-sm"
              />
              <p id="fulfilment-note-hint" className="text-sm text-stone-600">
                {text.fulfilment.noteHint}
              </p>
              <div className="flex flex-wrap gap-2">
                {order.nextFulfilmentSteps.map((state) => (
                  <button key={state} type="submit" name="state" value={state} className={buttonClass}>
                    {text.fulfilment.mark[state]}
                  </button>
                ))}
              </div>
            </form>
          )}
        </div>
      )}

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

      {jobs.length > 0 && (
        <div className="flex flex-col gap-2">
          <h2 className="text-lg font-semibold">{text.jobs}</h2>
          <ul className="flex flex-col gap-2">
            {jobs.map((job) => (
              <li
                key={job.id}
                data-testid="order-job"
                className="rounded-xl border border-stone-200 bg-white p-3 text-sm"
              >
                <JobSummary job={job} t={t} />
                {job.status === "PARKED" && (
                  <form method="post" action={`${actionPath}/jobs/${job.id}/retry`} className="mt-2">
                    <button type="submit" className={smallButtonClass}>
                      {text.retry}
                    </button>
                  </form>
                )}
                {job.status === "PARKED" && !job.resolvedAt && (
                  <details className="mt-2">
                    <summary className="cursor-pointer">{text.resolve.title}</summary>
                    <ResolveForm action={`${actionPath}/jobs/${job.id}/resolve`} id={`job-${job.id}`} t={t} />
                  </details>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold">{text.timeline}</h2>
        <p className="text-sm text-stone-600">{text.timelineNote}</p>
        <ol className="flex flex-col gap-2 border-l-2 border-stone-200 pl-4">
          {timeline.map((event, index) => (
            <li key={index} data-testid="timeline-event" data-kind={event.kind} className="text-sm">
              <time dateTime={event.at.toISOString()} className="block text-xs text-stone-500 tabular-nums">
                {luandaSecond(event.at)}
              </time>
              <EventBody event={event} t={t} />
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function LineList({ lines }: { lines: AdminOrderLine[] }) {
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {lines.map((line, index) => (
        <li key={index} className="flex justify-between gap-3">
          <span>
            {line.quantity} × {lineName(line.productName, line.variantTitle)}
            {line.sku ? <span className="ml-2 font-mono text-xs text-stone-600">{line.sku}</span> : null}
          </span>
          <span className="tabular-nums">{formatAoa(line.unitPriceAoa * line.quantity)}</span>
        </li>
      ))}
    </ul>
  );
}

function JobSummary({ job, t }: { job: AdminOrderJob; t: Dictionary }) {
  const text = t.admin.order;
  return (
    <div className="flex flex-col gap-0.5">
      <span>
        <span className="font-mono">{job.type}</span> · <strong data-testid="job-status">{job.status}</strong> ·{" "}
        {text.attempts(job.attempts, job.maxAttempts)}
      </span>
      {job.lastError && (
        <span className="break-words text-amber-900">
          {text.lastError}: {job.lastError}
        </span>
      )}
      {job.resolvedAt && (
        <span data-testid="job-resolution" className="break-words">
          {text.resolve.resolved(luandaSecond(job.resolvedAt))}: {job.resolutionNote}
        </span>
      )}
      <span className="text-xs text-stone-500 tabular-nums">
        {text.runAt} {luandaSecond(job.runAt)} · {text.updatedAt} {luandaSecond(job.updatedAt)}
      </span>
    </div>
  );
}

function EventBody({ event, t }: { event: TimelineEvent; t: Dictionary }) {
  const text = t.admin.order.event;
  switch (event.kind) {
    case "created": {
      const payment = event.paymentOrder;
      return (
        <div className="flex flex-col gap-1">
          <span className="font-medium">{text.created}</span>
          <LineList lines={event.lines} />
          <span>
            {payment.kind === "created"
              ? text.paymentCreated(payment.referenceNumber)
              : payment.kind === "failed"
                ? text.paymentFailed(payment.cancelReason)
                : text.paymentUnknown}
          </span>
        </div>
      );
    }
    case "webhook":
      return (
        <div className="flex flex-col gap-1">
          <span className="font-medium">{text.webhook(event.paymentStatus ?? "—")}</span>
          <span className="text-stone-600">
            {text.signature} · {text.outcome}: <span className="font-mono">{event.outcome}</span>
          </span>
          <details>
            <summary className="cursor-pointer text-stone-600">{t.admin.order.rawBody}</summary>
            {/* As text: React escapes it, never HTML. */}
            <pre className="mt-1 overflow-x-auto rounded bg-stone-100 p-2 text-xs whitespace-pre-wrap break-all">
              {event.rawBody}
            </pre>
          </details>
        </div>
      );
    case "job":
      return (
        <div className="flex flex-col gap-1">
          <span className="font-medium">{text.job(event.job.type)}</span>
          <JobSummary job={event.job} t={t} />
        </div>
      );
    case "email":
      return (
        <div className="flex flex-col gap-0.5">
          <span className="font-medium">{text.email(event.subject)}</span>
          <span className="text-stone-600">
            {text.to} {event.to} · {event.transport === "outbox" ? text.outbox : `${text.sent} (${event.transport})`}
          </span>
        </div>
      );
    case "finalized":
      return (
        <span className="font-medium">
          {text.finalized(t.order.status[event.status])}
          {event.cancelReason && ` (${event.cancelReason})`}
        </span>
      );
    case "invoice":
      return (
        <span className="font-medium">
          {text.invoice(event.number)} · {formatAoa(event.amountAoa)}
        </span>
      );
    case "stock_released":
      return (
        <div className="flex flex-col gap-1">
          <span className="font-medium">{text.stockReleased}</span>
          <LineList lines={event.lines} />
        </div>
      );
    case "paid_after_cancel":
      return <span className="font-medium">{text.paidAfterCancel}</span>;
    case "attention":
      return <span className="font-medium">{text.attention(event.reason)}</span>;
    case "status_checked":
      return <span className="font-medium">{text.statusChecked}</span>;
    case "fulfilment":
      return (
        <div className="flex flex-col gap-0.5">
          <span className="font-medium">{text.fulfilment(t.fulfilment.states[event.state], event.actor)}</span>
          {event.note && (
            <span className="break-words whitespace-pre-wrap text-stone-700">
              {text.fulfilmentNote}: {event.note}
            </span>
          )}
        </div>
      );
    case "resolved":
      return (
        <span className="font-medium break-words whitespace-pre-wrap">
          {event.by ? text.resolvedBy(event.by) : text.resolved}: {event.note}
        </span>
      );
    case "staff":
      return <StaffEventBody event={event} t={t} />;
  }
}

/** What a person did to the order (asked the service, retried or resolved a job), and who. */
function StaffEventBody({ event, t }: { event: StaffTimelineEvent; t: Dictionary }) {
  const text = t.admin.order.event;
  const job = event.jobType ?? "—";
  const title =
    event.action === "order.refresh"
      ? text.refreshed(event.by)
      : event.action === "order.job_retry"
        ? text.jobRetried(job, event.by)
        : event.action === "order.job_resolve"
          ? text.jobResolved(job, event.by)
          : event.action === "order.fulfil_after_cancel"
            ? text.fulfilledAfterCancel(event.by)
            : text.byPerson(event.action, event.by);
  return (
    <div className="flex flex-col gap-0.5">
      <span className="font-medium">{title}</span>
      {event.outcome && (
        <span className="text-stone-600">
          {text.outcome}: <span className="font-mono">{event.outcome}</span>
        </span>
      )}
      {event.note && (
        <span className="break-words whitespace-pre-wrap text-stone-700">
          {text.fulfilmentNote}: {event.note}
        </span>
      )}
    </div>
  );
}
