import type { ReactNode } from "react";

/**
 * The parts every section of the account's pages shares: a titled section (its `id` is the
 * anchor a form's redirect comes back to) and the message a form's redirect leaves in the query
 * (`?done=` or `?error=`: a status when it worked, an alert when it changed nothing).
 */

const LOOKS = {
  plain: "flex scroll-mt-4 flex-col gap-3",
  card: "flex scroll-mt-4 flex-col items-start gap-3 rounded-xl border border-stone-200 bg-white p-4",
  danger: "flex scroll-mt-4 flex-col items-start gap-3 rounded-xl border border-red-200 bg-white p-4",
} as const;

export function AccountSection({
  id,
  title,
  intro,
  look = "plain",
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  look?: keyof typeof LOOKS;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={LOOKS[look]}>
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {title}
      </h2>
      {intro && <p className="text-sm text-stone-600">{intro}</p>}
      {children}
    </section>
  );
}

export function AccountFlash({
  kind,
  testId,
  children,
}: {
  kind: "done" | "error";
  testId: string;
  children: ReactNode;
}) {
  return kind === "done" ? (
    <p role="status" data-testid={testId} className="rounded-md bg-emerald-50 px-3 py-2 text-emerald-800">
      {children}
    </p>
  ) : (
    <p role="alert" data-testid={testId} className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
      {children}
    </p>
  );
}
