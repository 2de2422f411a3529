import type { ReactNode } from "react";

/**
 * The message a back-office page shows after one of its forms (the action's redirect says
 * `?done=` or `?error=`): a status when it worked, an alert when it did nothing.
 */
export function Flash({
  kind,
  testId,
  id,
  children,
}: {
  kind: "done" | "error";
  testId: string;
  /** For a field's aria-describedby, when the error is about it. */
  id?: string;
  children: ReactNode;
}) {
  return kind === "done" ? (
    <p role="status" id={id} data-testid={testId} className="rounded-md bg-green-50 px-3 py-2 text-green-900">
      {children}
    </p>
  ) : (
    <p role="alert" id={id} data-testid={testId} className="rounded-md bg-amber-50 px-3 py-2 text-amber-900">
      {children}
    </p>
  );
}
