import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { ShopLink } from "@/components/ui/shop-link";
import { redirect } from "next/navigation";
import { CheckoutForm, type CheckoutAccount } from "@/components/checkout/checkout-form";
import { MAX_SAVED_ADDRESSES } from "@/lib/accounts/address-rules";
import { listAddresses } from "@/lib/accounts/addresses";
import type { SignedInShopper } from "@/lib/accounts/current-shopper";
import { getCart } from "@/lib/cart/cart";
import { CART_COOKIE, readCartId } from "@/lib/cart/shopper-cookies";
import { db } from "@/lib/db/client";
import { deliveryOptions } from "@/lib/delivery/zones";
import { getEnv } from "@/lib/env";
import { getLang } from "@/lib/http/request-lang";
import { currentShopper } from "@/lib/http/shopper-session";
import { formatAoa } from "@/lib/money";
import { readablePhone } from "@/lib/phone";
import { PROMO_CODE_INPUT_MAX } from "@/lib/promotions/promo-code-rules";

// Rendered per request (the cart's cookie, the CSP's nonce): reading who is signed in costs no cache.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.checkout.title, robots: { index: false } };
}

export default async function CheckoutPage({ searchParams }: { searchParams: Promise<{ promo?: string | string[] }> }) {
  const [{ lang, t }, cookieStore, requestHeaders, query] = await Promise.all([
    getLang(),
    cookies(),
    headers(),
    searchParams,
  ]);
  // A code applied on the cart: the form applies it again (the server checks it once more at payment).
  const promo = typeof query.promo === "string" && query.promo.length <= PROMO_CODE_INPUT_MAX ? query.promo : undefined;
  const cart = await getCart(db(), readCartId(cookieStore.get(CART_COOKIE)?.value));
  // Nothing to pay for, a line the stock cannot cover, or more than the shop's caps on units: the
  // cart page says what to do.
  if (!cart || cart.lines.length === 0 || cart.exceedsStock || cart.exceedsLimits) redirect("/cart");
  const { pay, accounts } = getEnv();
  const { publishableKey, sdkUrl } = pay;
  const [delivery, shopper] = await Promise.all([deliveryOptions(db()), currentShopper()]);
  const account = shopper ? await checkoutAccount(shopper) : undefined;

  return (
    <div className="grid gap-8 md:grid-cols-[1fr_minmax(0,24rem)]">
      <h1 className="text-2xl font-semibold tracking-tight md:col-span-2">{t.checkout.title}</h1>
      <section aria-labelledby="summary-title" className="flex flex-col gap-3">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="summary-title" className="text-lg font-medium">
            {t.checkout.summary}
          </h2>
          {cart.status === "OPEN" && (
            <ShopLink href="/cart" className="text-sm text-brand-700 hover:underline">
              {t.checkout.editCart}
            </ShopLink>
          )}
        </div>
        <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
          {cart.lines.map((line) => (
            <li key={line.variantId} data-testid="cart-line" className="flex justify-between gap-4 px-4 py-3">
              <span>
                {line.quantity} × {line.name}
                <span className="block text-sm text-stone-500 tabular-nums">{formatAoa(line.unitPriceAoa)}</span>
              </span>
              <span className="font-medium tabular-nums">{formatAoa(line.lineTotalAoa)}</span>
            </li>
          ))}
          <li className="flex justify-between gap-4 px-4 py-3 font-medium">
            <span>{t.checkout.subtotal}</span>
            <span data-testid="checkout-subtotal" className="tabular-nums">
              {formatAoa(cart.totalAoa)}
            </span>
          </li>
        </ul>
        {cart.status === "LOCKED" && <p className="text-sm text-sky-800">{t.checkout.lockedNote}</p>}
      </section>
      <CheckoutForm
        lang={lang}
        publishableKey={publishableKey}
        sdkUrl={sdkUrl}
        // The Content-Security-Policy's nonce (proxy.ts), for the SDK's script tag.
        nonce={requestHeaders.get("x-nonce") ?? undefined}
        subtotalAoa={cart.totalAoa}
        initialPromoCode={promo}
        delivery={delivery}
        account={account}
        signIn={accounts !== undefined}
        lines={cart.lines.map((line) => ({
          description: line.name,
          unitPriceAoa: line.unitPriceAoa,
          quantity: line.quantity,
          stock: line.stock,
        }))}
      />
    </div>
  );
}

/** What the form is filled with for a signed-in shopper: their details, phone and saved addresses. */
async function checkoutAccount(shopper: SignedInShopper): Promise<CheckoutAccount> {
  const addresses = await listAddresses(db(), shopper.id);
  return {
    phone: readablePhone(shopper.phoneKey),
    name: shopper.name,
    email: shopper.contactEmail,
    nif: shopper.nif,
    // The default first (listAddresses' order).
    addresses: addresses.map(({ id, province, municipality, neighbourhood, street, reference, isDefault }) => ({
      id,
      province,
      municipality,
      neighbourhood,
      street,
      reference,
      isDefault,
    })),
    canSaveAddress: addresses.length < MAX_SAVED_ADDRESSES,
  };
}
