import { flashOf, ORDER_ACTION_DONE, ORDER_ACTION_ERRORS } from "@/lib/orders/order-flash";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";

type Query = Record<string, string | string[] | undefined>;

/** The outcome of an order or delivery page's action (lib/http/order-actions.ts), from its `?done=` or `?error=`. */
export function ActionFlash({ query, t, testId }: { query: Query; t: Dictionary; testId: string }) {
  const done = flashOf(query.done, ORDER_ACTION_DONE);
  const error = flashOf(query.error, ORDER_ACTION_ERRORS);
  if (error)
    return (
      <Flash kind="error" testId={testId}>
        {t.admin.order.errors[error]}
      </Flash>
    );
  if (done)
    return (
      <Flash kind="done" testId={testId}>
        {t.admin.order.done[done]}
      </Flash>
    );
  return null;
}
