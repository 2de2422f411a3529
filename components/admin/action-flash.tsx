import { readFlash, type PageQuery } from "@/lib/flash";
import { ORDER_ACTION_DONE, ORDER_ACTION_ERRORS } from "@/lib/orders/order-flash";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";

/** The outcome of an order or delivery page's button (lib/http/order-actions.ts), from its `?done=` or `?error=`. */
export function ActionFlash({ query, t, testId }: { query: PageQuery; t: Dictionary; testId: string }) {
  const { done, error } = readFlash(query, { done: ORDER_ACTION_DONE, errors: ORDER_ACTION_ERRORS });
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
