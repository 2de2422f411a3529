"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { refreshHeaderCartCount } from "@/components/cart/header-cart-count";
import type { OrderStatusCode } from "@/components/orders/use-order-status";

/**
 * Waits before each further refresh while the server still says the paid order's cart is not
 * emptied (the clear-cart job runs just after the webhook's reply, or, should it fail, on the
 * worker's next rounds). About 30 s in all; then the header waits for the next page load.
 */
export const CART_REFRESH_DELAYS_MS: readonly number[] = [1_000, 2_000, 3_000, 5_000, 8_000, 10_000];

/**
 * Keeps the header's cart count (fetched by the browser, components/cart/header-cart-count.tsx) true
 * to the server on the result and order pages once an order is paid. The count needs a refresh:
 * the cart is emptied by a job after the webhook, so the count fetched when the page opened can
 * be a moment early. Each refresh fetches the count again and renders this page again on the
 * server (`router.refresh()`); the page says whether the job has run (`cartCleared`):
 *
 * - once the order is CON (it arrived so on the success or pending page, or turned CON here, or
 *   its cart is still full): one refresh;
 * - while the page says the cart is not emptied yet: again after each of
 *   {@link CART_REFRESH_DELAYS_MS}, then no more;
 * - when the page turns to "emptied" after having said "not yet": once more, because the count
 *   fetched with the render that said so may have been read just before the job committed.
 *
 * A handful of refreshes at most, never a loop: each step happens once per page.
 */
export function useHeaderCartCount({
  status,
  initialStatus,
  page,
  cartCleared,
}: {
  /** The polled status. */
  status: OrderStatusCode;
  /** The status the page opened with (a refresh brings new props; the arrival is what counts). */
  initialStatus: OrderStatusCode;
  page: "success" | "pending" | "order";
  /** The server's latest word: the order is CON and its cart emptied. */
  cartCleared: boolean;
}) {
  const router = useRouter();
  // The page again on the server (its `cartCleared`), and the header's count from GET /api/cart.
  const refresh = useCallback(() => {
    router.refresh();
    refreshHeaderCartCount();
  }, [router]);
  const [arrivedWith] = useState(initialStatus);
  const [waited, setWaited] = useState(0);
  const steps = useRef({ started: false, sawFullCart: !cartCleared, confirmed: false });
  // An order page opened long after the payment, with its cart long emptied, has nothing to refresh.
  const active = status === "CON" && (arrivedWith !== "CON" || page !== "order" || !cartCleared);

  useEffect(() => {
    if (!active || steps.current.started) return;
    steps.current.started = true;
    refresh();
  }, [active, refresh]);

  useEffect(() => {
    if (!active || cartCleared) return;
    steps.current.sawFullCart = true;
    if (waited >= CART_REFRESH_DELAYS_MS.length) return;
    const timer = setTimeout(() => {
      setWaited((count) => count + 1);
      refresh();
    }, CART_REFRESH_DELAYS_MS[waited]);
    return () => clearTimeout(timer);
  }, [active, cartCleared, waited, refresh]);

  useEffect(() => {
    if (!active || !cartCleared || !steps.current.sawFullCart || steps.current.confirmed) return;
    steps.current.confirmed = true;
    refresh();
  }, [active, cartCleared, refresh]);
}
