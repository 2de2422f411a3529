import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * "Mark resolved" with its required note, for an attention item (lib/orders/attention-admin.ts), posted
 * to `action` (a route using lib/http/order-actions.ts `markResolved`). `id` keeps the label's
 * target unique when a page has several.
 */
export function ResolveForm({ action, id, t }: { action: string; id: string; t: Dictionary }) {
  const text = t.admin.order.resolve;
  return (
    <form method="post" action={action} className="flex flex-col gap-2">
      <label htmlFor={`resolve-note-${id}`} className="text-sm font-medium">
        {text.note}
      </label>
      <textarea
        id={`resolve-note-${id}`}
        name="note"
        required
        maxLength={2000}
        rows={3}
        className="rounded-md border border-stone-300 bg-white px-3 py-2 text-sm"
      />
      <button
        type="submit"
        className="self-start rounded-md bg-brand-700 px-3 py-1 text-sm font-medium text-white hover:bg-brand-600"
      >
        {text.submit}
      </button>
    </form>
  );
}
