"use client";

import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { formatAoa } from "@/lib/money";
import { PROMO_CODE_INPUT_MAX } from "@/lib/promotions/promo-code-rules";

export interface AppliedPromo {
  code: string;
  discountAoa: number;
}

/**
 * A promo code field, on the cart and at checkout: "Aplicar" asks POST /api/cart/promo what the
 * code takes off this browser's cart (nothing is reserved or counted; the checkout decides again
 * when it creates the order) and says why when it does not apply. `initialCode` (the cart's link
 * to the checkout carries it) is applied as soon as the field appears.
 */
export function PromoCodeField({
  lang,
  initialCode,
  phone,
  onChange,
}: {
  lang: Lang;
  initialCode?: string;
  /** The checkout's phone, once valid: a code limited per phone is checked with it. */
  phone?: string;
  onChange(promo: AppliedPromo | null): void;
}) {
  const t = dictionary(lang).checkout;
  const id = useId();
  const [input, setInput] = useState(initialCode ?? "");
  const [applied, setApplied] = useState<AppliedPromo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef({ onChange, phone });
  useLayoutEffect(() => {
    latest.current = { onChange, phone };
  });

  const settle = (promo: AppliedPromo | null) => {
    setApplied(promo);
    latest.current.onChange(promo);
  };

  const apply = async (raw: string) => {
    const code = raw.trim();
    if (code === "") return;
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/cart/promo", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code, ...(latest.current.phone ? { phone: latest.current.phone } : {}) }),
      });
      const body = (await response.json().catch(() => null)) as {
        code?: unknown;
        discountAoa?: unknown;
        error?: { code?: unknown };
      } | null;
      if (response.ok && typeof body?.code === "string" && typeof body.discountAoa === "number") {
        settle({ code: body.code, discountAoa: body.discountAoa });
        setInput(body.code);
      } else {
        settle(null);
        const reason = typeof body?.error?.code === "string" ? body.error.code : "other";
        setError(
          Object.hasOwn(t.promoErrors, reason)
            ? t.promoErrors[reason as keyof typeof t.promoErrors]
            : t.promoErrors.other,
        );
      }
    } catch {
      settle(null);
      setError(t.promoErrors.other);
    } finally {
      setBusy(false);
    }
  };

  const applyOnMount = useRef(initialCode);
  useEffect(() => {
    if (applyOnMount.current) void apply(applyOnMount.current);
    applyOnMount.current = undefined;
    // Once, for the code the page was opened with.
  }, []);

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void apply(input);
      }}
      className="flex flex-col gap-1"
    >
      <label htmlFor={`${id}-promo`} className="text-sm font-medium">
        {t.promo}
      </label>
      <div className="flex gap-2">
        <input
          id={`${id}-promo`}
          name="promoCode"
          value={input}
          onChange={(event) => {
            setInput(event.target.value);
            if (applied) settle(null);
            setError(null);
          }}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={PROMO_CODE_INPUT_MAX}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-promo-message`}
          className="min-w-0 flex-1 rounded-md border border-stone-300 px-3 py-2 text-base uppercase aria-invalid:border-red-600"
        />
        {applied ? (
          <button
            type="button"
            onClick={() => {
              settle(null);
              setInput("");
            }}
            className="rounded-md border border-stone-300 px-3 py-2 text-sm font-medium hover:bg-stone-100"
          >
            {t.promoRemove}
          </button>
        ) : (
          <button
            type="submit"
            disabled={busy || input.trim() === ""}
            className="rounded-md border border-stone-300 px-3 py-2 text-sm font-medium hover:bg-stone-100 disabled:opacity-50"
          >
            {t.promoApply}
          </button>
        )}
      </div>
      <p id={`${id}-promo-message`} role="status" className="min-h-5 text-sm">
        {error ? (
          <span className="text-red-700">{error}</span>
        ) : applied ? (
          <span className="text-emerald-800">{t.promoApplied(applied.code, formatAoa(applied.discountAoa))}</span>
        ) : null}
      </p>
    </form>
  );
}
