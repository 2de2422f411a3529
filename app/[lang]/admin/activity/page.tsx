import type { Metadata } from "next";
import Link from "next/link";
import {
  activityPage,
  activityPeople,
  activitySearch,
  detailLines,
  parseActivityQuery,
  type ActivityProblem,
} from "@/lib/admin/activity";
import { STAFF_EVENT_KINDS } from "@/lib/admin/staff-events";
import { luandaSecond } from "@/lib/luanda-time";
import { requireStaff } from "@/lib/http/admin-guard";
import { db } from "@/lib/db/client";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { getLang } from "@/lib/http/request-lang";

// The owner's record of who did what (lib/admin/activity.ts): the events newest first, filtered by
// person, kind and period, fifty a page, and the same filter as CSV (GET /api/admin/activity/export).
export const dynamic = "force-dynamic";

type Query = Record<string, string | string[] | undefined>;

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.activity.title, robots: { index: false, follow: false } };
}

const fieldClass = "rounded-md border border-stone-300 bg-white px-3 py-2";
const buttonClass = "rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600";

/** `?query` of `params`, or nothing. */
const withQuery = (path: string, params: URLSearchParams) => (params.size > 0 ? `${path}?${params}` : path);

export default async function AdminActivityPage({ searchParams }: { searchParams: Promise<Query> }) {
  await requireStaff("/admin/activity");
  const [{ t }, params] = await Promise.all([getLang(), searchParams]);
  const query = parseActivityQuery(params);
  const [people, page] = await Promise.all([activityPeople(db()), activityPage(db(), query)]);
  const problems: ActivityProblem[] = [...query.problems];
  // An id nobody has: said, like any other value the filter could not use (the list is then empty).
  if (query.filter.person && !people.some((person) => person.id === query.filter.person))
    problems.push({ field: "person", message: "unknown person" });
  const text = t.admin.activity;
  const search = activitySearch(query.filter);
  const filtered = search.size > 0;

  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
      <Link href="/admin" className="text-sm underline">
        {text.back}
      </Link>
      <p className="text-sm text-stone-600">{text.intro}</p>

      <form method="get" action="/admin/activity" role="search" className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="activity-person" className="text-sm font-medium">
            {text.person}
          </label>
          <select id="activity-person" name="person" defaultValue={query.filter.person ?? ""} className={fieldClass}>
            <option value="">{text.everyone}</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="activity-kind" className="text-sm font-medium">
            {text.kind}
          </label>
          <select id="activity-kind" name="kind" defaultValue={query.filter.kind ?? ""} className={fieldClass}>
            <option value="">{text.allKinds}</option>
            {STAFF_EVENT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {text.kinds[kind] ?? kind}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="activity-from" className="text-sm font-medium">
            {text.from}
          </label>
          <input id="activity-from" name="from" type="date" defaultValue={query.filter.from} className={fieldClass} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="activity-to" className="text-sm font-medium">
            {text.to}
          </label>
          <input id="activity-to" name="to" type="date" defaultValue={query.filter.to} className={fieldClass} />
        </div>
        <button type="submit" className={buttonClass}>
          {text.filter}
        </button>
        {filtered && (
          <Link href="/admin/activity" className="self-center text-sm underline">
            {text.clear}
          </Link>
        )}
      </form>

      {problems.length > 0 && (
        <div
          role="alert"
          data-testid="activity-problems"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <p>{text.invalid}</p>
          <ul className="list-disc pl-5">
            {problems.map((problem) => (
              <li key={problem.field}>{text.problems[problem.field]}</li>
            ))}
          </ul>
        </div>
      )}

      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <a href={withQuery("/api/admin/activity/export", search)} className="font-medium underline" download>
          {text.download}
        </a>
        <span className="text-stone-600">{text.downloadHint}</span>
      </div>

      {page.events.length === 0 ? (
        <p data-testid="activity-none">{text.none}</p>
      ) : (
        // A table from the sm breakpoint; on a phone each row is a card, each cell with its own label.
        <div className="overflow-hidden rounded-xl border border-stone-200 bg-white">
          <table className="block w-full text-left text-sm sm:table">
            <thead className="hidden border-b border-stone-200 bg-stone-50 text-stone-600 sm:table-header-group">
              <tr>
                {[text.when, text.who, text.what, text.subject, text.details].map((heading) => (
                  <th key={heading} scope="col" className="px-3 py-2 font-medium">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="block sm:table-row-group">
              {page.events.map((event) => (
                <tr
                  key={event.id}
                  data-testid="activity-event"
                  data-kind={event.kind}
                  className="flex flex-col gap-2 border-b border-stone-100 p-3 align-top last:border-0 sm:table-row sm:p-0"
                >
                  <td className="tabular-nums sm:table-cell sm:px-3 sm:py-2 sm:whitespace-nowrap">
                    <CellLabel>{text.when}</CellLabel>
                    <time dateTime={event.createdAt.toISOString()}>{luandaSecond(event.createdAt)}</time>
                  </td>
                  <td data-testid="activity-person" className="sm:table-cell sm:px-3 sm:py-2">
                    <CellLabel>{text.who}</CellLabel>
                    {event.staffName || text.nobody}
                  </td>
                  <td className="sm:table-cell sm:px-3 sm:py-2">
                    <CellLabel>{text.what}</CellLabel>
                    {text.kinds[event.kind] ?? event.kind}
                  </td>
                  <td className="break-all sm:table-cell sm:px-3 sm:py-2">
                    <CellLabel>{text.subject}</CellLabel>
                    <Subject subject={event.subject} t={t} />
                  </td>
                  <td className="sm:table-cell sm:px-3 sm:py-2">
                    <CellLabel>{text.details}</CellLabel>
                    <ul className="flex flex-col gap-0.5 break-words text-stone-700">
                      {detailLines(event.details).map((line, index) => (
                        <li key={index}>{line}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {(query.after || page.next) && (
        <nav aria-label={text.pagination} className="flex items-center justify-between gap-3 text-sm">
          {query.after ? (
            <Link href={withQuery("/admin/activity", search)} className="underline">
              {text.first}
            </Link>
          ) : (
            <span />
          )}
          {page.next ? (
            <Link
              href={withQuery("/admin/activity", new URLSearchParams([...search, ["after", page.next]]))}
              rel="next"
              className="underline"
            >
              {text.older}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}

/** What an event was about: an order or a notification as a link to its page, anything else by its kind and id. */
function Subject({ subject, t }: { subject: string | null; t: Dictionary }) {
  if (!subject) return <>—</>;
  const [kind = "", ...rest] = subject.split(":");
  const id = rest.join(":");
  const label = t.admin.activity.subjects[kind];
  if (!label || !id) return <span className="font-mono text-xs">{subject}</span>;
  const href = kind === "order" ? `/admin/orders/${id}` : kind === "webhook" ? `/admin/webhooks/${id}` : undefined;
  return (
    <span>
      {label}{" "}
      {href ? (
        <Link href={href} className="font-mono text-xs underline">
          {id}
        </Link>
      ) : (
        <span className="font-mono text-xs">{id}</span>
      )}
    </span>
  );
}

/** A cell's column name, shown only where the table is a stack of cards (a phone). */
function CellLabel({ children }: { children: string }) {
  return <span className="block font-sans text-xs text-stone-500 sm:hidden">{children}</span>;
}
