import type { ReactNode } from "react";

/** One labelled value of a back-office detail page's header (a `<dl>`). */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-stone-500">{label}</dt>
      <dd className="break-all">{children}</dd>
    </div>
  );
}
