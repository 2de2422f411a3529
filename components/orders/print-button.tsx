"use client";

/** Opens the browser's print dialog (the receipt page's button; hidden on paper). */
export function PrintButton({ label }: { label: string }) {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="rounded-md bg-stone-900 px-4 py-2 text-sm font-medium text-white hover:bg-stone-700"
    >
      {label}
    </button>
  );
}
