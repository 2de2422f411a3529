import type { BackOfficeTexts } from "@/lib/i18n/back-office";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { luandaSecond } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import type { StaffTimelineEvent, TimelineEvent } from "@/lib/orders/timeline-admin";
import { JobSummary, LineList } from "./order-parts";
import { RefundEventBody } from "./refund-parts";

/** An order's history on its back-office page (lib/orders/timeline-admin.ts), oldest first, in Luanda's time. */
export function OrderTimeline({
  timeline,
  t,
  words,
}: {
  timeline: TimelineEvent[];
  t: Dictionary;
  words: BackOfficeTexts;
}) {
  const text = t.admin.order;
  return (
    <div className="flex flex-col gap-2">
      <h2 className="text-lg font-semibold">{text.timeline}</h2>
      <p className="text-sm text-stone-600">{text.timelineNote}</p>
      <ol className="flex flex-col gap-2 border-l-2 border-stone-200 pl-4">
        {timeline.map((event, index) => (
          <li key={index} data-testid="timeline-event" data-kind={event.kind} className="text-sm">
            <time dateTime={event.at.toISOString()} className="block text-xs text-stone-500 tabular-nums">
              {luandaSecond(event.at)}
            </time>
            <EventBody event={event} t={t} words={words} />
          </li>
        ))}
      </ol>
    </div>
  );
}

function EventBody({ event, t, words }: { event: TimelineEvent; t: Dictionary; words: BackOfficeTexts }) {
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
    case "refund":
      return <RefundEventBody event={event} words={words.refunds} />;
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
