import type { PayMode } from "@/lib/env";
import type { Dictionary } from "@/lib/i18n/dictionaries";

/**
 * A slim notice above the site header while the shop runs with a pk_test_ key (the service's
 * sandbox), so nobody mistakes it for a real shop. Nothing with a pk_live_ key.
 */
export function TestModeBanner({ t, mode }: { t: Dictionary; mode: PayMode }) {
  if (mode !== "sandbox") return null;
  return (
    <div
      role="status"
      data-testid="test-mode-banner"
      className="border-b border-amber-300 bg-amber-100 text-amber-950 print:hidden"
    >
      <p className="mx-auto max-w-6xl px-4 py-1.5 text-center text-sm font-medium">{t.shop.testMode}</p>
    </div>
  );
}
