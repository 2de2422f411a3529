"use client";

import { useState } from "react";
import type { BackOfficeTexts } from "@/lib/i18n/back-office";

/**
 * The dashboard's panels (./dashboard.tsx): a picture's title, its sentence, the picture, its table
 * behind a toggle and its CSV; and the tables themselves, each a scrolling region of its own.
 */

type Words = BackOfficeTexts["dashboard"];

const cellClass = "px-2 py-1 tabular-nums";

/** "30/11" for 2026-11-30: the pictures' axis. */
const shortDate = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}`;

/** A point's day, or its week's first and last days: the tables' first column, and the pictures' axis. */
export const span = ({ date, to }: { date: string; to: string }) => (to === date ? date : `${date} – ${to}`);
export const shortSpan = ({ date, to }: { date: string; to: string }) =>
  to === date ? shortDate(date) : `${shortDate(date)}–${shortDate(to)}`;

/** A picture's panel: title, summary sentence, the picture, its table behind a toggle, its CSV. */
export function Panel({
  id,
  title,
  summary,
  chart,
  headers,
  rows,
  csv,
  text,
  open = false,
}: {
  id: string;
  title: string;
  summary: string;
  chart?: (summary: string) => React.ReactNode;
  headers: string[];
  /** The table's rows, made only when it is shown. */
  rows: () => string[][];
  csv: string;
  text: Words;
  /** The table shown at once (a panel without a picture). */
  open?: boolean;
}) {
  // A picture's table is made when it is first opened, not with the page: the picture says the
  // same, and seven tables of a period's days were most of the page's markup and of its render.
  const [shown, setShown] = useState(open);
  return (
    <section
      aria-labelledby={`dashboard-${id}-title`}
      data-testid={`dashboard-panel-${id}`}
      className="flex min-w-0 flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4"
    >
      <h3 id={`dashboard-${id}-title`} className="font-semibold">
        {title}
      </h3>
      <p className="text-sm text-stone-700" data-testid={`dashboard-summary-${id}`}>
        {summary}
      </p>
      {chart?.(summary)}
      <details
        open={open || undefined}
        className="text-sm"
        onToggle={(event) => setShown(shown || event.currentTarget.open)}
      >
        <summary className="cursor-pointer underline">{text.showTable}</summary>
        {shown && (
          <DataTable
            caption={title}
            label={text.tableOf(title)}
            headers={headers}
            rows={rows()}
            testId={`dashboard-table-${id}`}
          />
        )}
      </details>
      <a href={csv} download className="text-sm underline" data-testid={`dashboard-csv-${id}`}>
        {text.download}
      </a>
    </section>
  );
}

export function DataTable({
  caption,
  label,
  headers,
  rows,
  testId,
}: {
  caption: string;
  /** The scrolling region's name: "Tabela: …". */
  label: string;
  headers: string[];
  rows: string[][];
  testId: string;
}) {
  return (
    // Scrolls on its own, so the keyboard can reach it: a region named apart from its panel's.
    <div className="mt-2 max-h-96 overflow-auto" tabIndex={0} role="region" aria-label={label}>
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-stone-50">
          <tr>
            {headers.map((header, index) => (
              <th key={header} scope="col" className={`${cellClass} font-medium ${index > 0 ? "text-right" : ""}`}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} className="border-t border-stone-100">
              {row.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row" className={`${cellClass} font-normal`}>
                    {cell}
                  </th>
                ) : (
                  <td key={index} className={`${cellClass} text-right`}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
