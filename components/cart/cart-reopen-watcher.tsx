"use client";

import { useRouter } from "next/navigation";
import { useOrderStatus, type OrderStatusCode } from "@/components/orders/use-order-status";
import { dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { Spinner } from "@/components/ui/spinner";

/**
 * On /cart after a cancelled payment while the cart is still LOCKED: the cart is reopened by a
 * job once the service's CAN webhook has arrived, so poll endpoint C and refresh the page when
 * the order is CAN (again, with backoff, until the reopened cart replaces this component) or
 * CON (it was paid after all). `quiet`: only the refresh, no progress shown (the order may
 * well stay PEN: the shopper closed the popup and can still pay).
 */
export function CartReopenWatcher({
  lang,
  externalTransactionId,
  initialStatus,
  quiet = false,
}: {
  lang: Lang;
  externalTransactionId: string;
  initialStatus: OrderStatusCode;
  quiet?: boolean;
}) {
  const t = dictionary(lang);
  const router = useRouter();
  const { gaveUp, checking, checkAgain } = useOrderStatus(
    externalTransactionId,
    { status: initialStatus },
    {
      keepPolling: (snapshot) => snapshot.status !== "CON",
      onSnapshot: (snapshot) => {
        if (snapshot.status !== "PEN") router.refresh();
      },
    },
  );

  if (quiet) return null;
  return (
    <div aria-live="polite" className="flex flex-wrap items-center gap-3 text-sm">
      {gaveUp ? (
        <>
          <span>{t.cart.reopenSlow}</span>
          <button
            type="button"
            onClick={() => {
              router.refresh();
              checkAgain();
            }}
            disabled={checking}
            className="rounded-md bg-stone-900 px-3 py-1.5 font-medium text-white disabled:opacity-60"
          >
            {checking ? t.order.checking : t.cart.reload}
          </button>
        </>
      ) : (
        <span className="flex items-center gap-2">
          <Spinner />
          {t.cart.reopening}
        </span>
      )}
    </div>
  );
}
