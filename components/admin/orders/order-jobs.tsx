import { ResolveForm } from "@/components/admin/resolve-form";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import type { AdminOrderJob } from "@/lib/orders/timeline-admin";
import { JobSummary } from "./order-parts";

const smallButtonClass = "rounded-md bg-brand-700 px-3 py-1 text-sm font-medium text-white hover:bg-brand-600";

/** An order's jobs, a parked one with its retry and "mark resolved" (POST `<actionPath>/jobs/<id>/…`). */
export function OrderJobs({ jobs, actionPath, t }: { jobs: AdminOrderJob[]; actionPath: string; t: Dictionary }) {
  const text = t.admin.order;
  return (
    <div className="flex flex-col gap-2">
      <h2 className="text-lg font-semibold">{text.jobs}</h2>
      <ul className="flex flex-col gap-2">
        {jobs.map((job) => (
          <li key={job.id} data-testid="order-job" className="rounded-xl border border-stone-200 bg-white p-3 text-sm">
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
  );
}
