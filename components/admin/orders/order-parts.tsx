import { lineName } from "@/lib/catalog/variants";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { luandaSecond } from "@/lib/luanda-time";
import { formatAoa } from "@/lib/money";
import type { AdminOrderJob, AdminOrderLine } from "@/lib/orders/timeline-admin";

/** The pieces an order's back-office page shows in more than one place: its lines, and a job's state. */

export function LineList({ lines }: { lines: AdminOrderLine[] }) {
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

export function JobSummary({ job, t }: { job: AdminOrderJob; t: Dictionary }) {
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
