import type { ReactNode } from "react";

/**
 * The message a back-office page shows after one of its forms (the action's redirect says
 * `?done=` or `?error=`): a status when it worked, an alert when it did nothing.
 */
export function Flash({ kind, testId, children }: { kind: "done" | "error"; testId: string; children: ReactNode }) {
  return kind === "done" ? (
    <p role="status" data-testid={testId} className="rounded-md bg-green-50 px-3 py-2 text-green-900">
      {children}
    </p>
  ) : (
    <p role="alert" data-testid={testId} className="rounded-md bg-amber-50 px-3 py-2 text-amber-900">
      {children}
    </p>
  );
}
