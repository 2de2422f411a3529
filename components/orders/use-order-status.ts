"use client";

import { useEffect, useRef, useState } from "react";
import { parseRetryAfterMs } from "@/lib/pay/api/retry";

/**
 * Polls endpoint C (GET /api/pay/order/:id/status) for an order's status as the server knows
 * it. The browser's callbacks never decide the outcome; this only shows what the webhook (or
 * the server's status fallback) already wrote. Backoff 1 s, 1.5 s, … capped at 5 s; after
 * about two minutes it stops, and `checkAgain()` asks once more with `?refresh=1` (the server
 * then asks the service) before polling again. A 429 (the server's per-address limit on
 * refreshes) is not an error: the next request waits at least its Retry-After.
 */

export type OrderStatusCode = "PEN" | "CON" | "CAN";

export interface OrderStatusSnapshot {
  status: OrderStatusCode;
  paymentReference?: string;
  entityNumber?: string;
  /** When the order must be paid by, when that is before its reference runs out (ISO; endpoint C's `payBy`). */
  payBy?: string;
}

export const POLL_FIRST_DELAY_MS = 1_000;
export const POLL_BACKOFF_FACTOR = 1.5;
export const POLL_MAX_DELAY_MS = 5_000;
export const POLL_GIVE_UP_AFTER_MS = 120_000;

/** How long to wait after a 429 without a usable Retry-After: the limits count per minute. */
export const RATE_LIMITED_DEFAULT_WAIT_MS = 60_000;

const STATUSES: readonly OrderStatusCode[] = ["PEN", "CON", "CAN"];

/** The server asked us to slow down (429): wait this long before the next request. */
interface SlowDown {
  retryAfterMs: number;
}

/** Retry-After in milliseconds (whole seconds or an HTTP date), else the default wait. */
const retryAfterMs = (header: string | null) => parseRetryAfterMs(header, Date.now()) ?? RATE_LIMITED_DEFAULT_WAIT_MS;

async function fetchStatus(
  externalTransactionId: string,
  refresh: boolean,
): Promise<OrderStatusSnapshot | SlowDown | null> {
  try {
    const response = await fetch(
      `/api/pay/order/${encodeURIComponent(externalTransactionId)}/status${refresh ? "?refresh=1" : ""}`,
      { cache: "no-store", headers: { Accept: "application/json" } },
    );
    if (response.status === 429) return { retryAfterMs: retryAfterMs(response.headers.get("Retry-After")) };
    if (!response.ok) return null;
    const body = (await response.json()) as Record<string, unknown>;
    const status = STATUSES.find((code) => code === body.status);
    if (!status) return null;
    return {
      status,
      ...(typeof body.paymentReference === "string" ? { paymentReference: body.paymentReference } : {}),
      ...(typeof body.entityNumber === "string" ? { entityNumber: body.entityNumber } : {}),
      ...(typeof body.payBy === "string" ? { payBy: body.payBy } : {}),
    };
  } catch {
    // Offline for a moment, or the server restarting: the next round tries again.
    return null;
  }
}

export function useOrderStatus(
  externalTransactionId: string,
  initial: OrderStatusSnapshot,
  options: {
    /** Whether to keep asking after this answer (default: while the order is PEN). */
    keepPolling?: (snapshot: OrderStatusSnapshot) => boolean;
    onSnapshot?: (snapshot: OrderStatusSnapshot) => void;
  } = {},
) {
  const [snapshot, setSnapshot] = useState(initial);
  const [gaveUp, setGaveUp] = useState(false);
  const [checking, setChecking] = useState(false);
  // Each "check again" starts a new round of polling.
  const [round, setRound] = useState(0);
  const optionsRef = useRef(options);
  const snapshotRef = useRef(snapshot);
  useEffect(() => {
    optionsRef.current = options;
    snapshotRef.current = snapshot;
  });

  useEffect(() => {
    const keepPolling = (value: OrderStatusSnapshot) =>
      (optionsRef.current.keepPolling ?? ((s: OrderStatusSnapshot) => s.status === "PEN"))(value);
    if (round === 0 && !keepPolling(snapshotRef.current)) return;

    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const startedAt = Date.now();
    let delay = POLL_FIRST_DELAY_MS;

    async function poll(refresh: boolean) {
      if (refresh) setChecking(true);
      const next = await fetchStatus(externalTransactionId, refresh);
      if (stopped) return;
      if (refresh) setChecking(false);
      let wait = 0;
      if (next && "retryAfterMs" in next) wait = next.retryAfterMs;
      else if (next) {
        setSnapshot(next);
        optionsRef.current.onSnapshot?.(next);
        if (!keepPolling(next)) return;
      }
      if (Date.now() - startedAt >= POLL_GIVE_UP_AFTER_MS) {
        setGaveUp(true);
        return;
      }
      delay = Math.min(delay * POLL_BACKOFF_FACTOR, POLL_MAX_DELAY_MS);
      timer = setTimeout(() => void poll(false), Math.max(delay, wait));
    }

    if (round > 0) void poll(true);
    else timer = setTimeout(() => void poll(false), delay);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [externalTransactionId, round]);

  function checkAgain() {
    setGaveUp(false);
    setRound((value) => value + 1);
  }

  return { snapshot, gaveUp, checking, checkAgain };
}
