"use client";

import { ShopLink } from "@/components/ui/shop-link";
import { useState } from "react";
import { PromoCodeField, type AppliedPromo } from "@/components/cart/promo-code-field";
import { dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { formatAoa } from "@/lib/money";

/**
 * The cart's promo code: its effect on the cart's total before checking out (POST /api/cart/promo,
 * nothing reserved), and the way to the checkout, which carries the code (`/checkout?promo=…`)
 * and applies it again there. Delivery is chosen at checkout, so the total here is the goods'.
 */
export function CartPromo({ lang, totalAoa, checkoutLabel }: { lang: Lang; totalAoa: number; checkoutLabel: string }) {
  const t = dictionary(lang).checkout;
  const [promo, setPromo] = useState<AppliedPromo | null>(null);
  return (
    <div className="flex w-full max-w-sm flex-col gap-3">
      <PromoCodeField lang={lang} onChange={setPromo} />
      {promo && (
        <dl className="flex flex-col gap-1 text-right">
          <div className="flex justify-end gap-2 text-emerald-800">
            <dt>{t.discount(promo.code)}:</dt>
            <dd data-testid="cart-discount" className="tabular-nums">
              −{formatAoa(promo.discountAoa)}
            </dd>
          </div>
          <div className="flex justify-end gap-2 font-semibold">
            <dt>{t.total}:</dt>
            <dd data-testid="cart-total-after-discount" className="tabular-nums">
              {formatAoa(totalAoa - promo.discountAoa)}
            </dd>
          </div>
        </dl>
      )}
      <ShopLink
        href={promo ? `/checkout?promo=${encodeURIComponent(promo.code)}` : "/checkout"}
        className="self-end rounded-md bg-brand-700 px-5 py-2.5 font-medium text-white hover:bg-brand-600"
      >
        {checkoutLabel}
      </ShopLink>
    </div>
  );
}
