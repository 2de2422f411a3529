"use client";

import { ShopLink } from "@/components/ui/shop-link";
import { usePathname, useSearchParams } from "next/navigation";
import { Suspense, useEffect, useState, useSyncExternalStore } from "react";
import type { Lang } from "@/lib/i18n/languages";
import { storefrontTexts } from "@/lib/i18n/storefront-texts";

const CART_CHANGED = "shop:cart-changed";

/**
 * Asks the header to fetch its count again now (components/cart/use-header-cart-count.ts, once the
 * webhook's job has emptied a paid order's cart). Navigations refresh it by themselves.
 */
export function refreshHeaderCartCount(): void {
  window.dispatchEvent(new Event(CART_CHANGED));
}

/** What GET /api/cart last answered this page: the cart's count and whether a shopper is signed in. */
interface HeaderState {
  itemCount: number;
  signedIn: boolean;
}

// One answer for both of the header's islands (the cart's count, the account's link): the cart's
// fetches it, the account's reads it here, so the header costs one request.
let headerState: HeaderState | null = null;
const headerListeners = new Set<() => void>();

function publishHeaderState(state: HeaderState): void {
  headerState = state;
  for (const listener of headerListeners) listener();
}

function subscribeToHeaderState(listener: () => void): () => void {
  headerListeners.add(listener);
  return () => headerListeners.delete(listener);
}

/**
 * The header's link to the cart with its count. Every page is built once for all shoppers
 * (app/[lang]/(shop)/layout.tsx reads no cookie), so the browser fetches its own count from GET
 * /api/cart: after hydration, after every navigation (a cart form's redirect changes the query)
 * and when {@link refreshHeaderCartCount} says so. Until the first answer the badge is empty.
 */
export function HeaderCartCount({ lang }: { lang: Lang }) {
  return (
    <Suspense fallback={<CartLink lang={lang} count={null} />}>
      <LiveCartLink lang={lang} />
    </Suspense>
  );
}

function LiveCartLink({ lang }: { lang: Lang }) {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  const [count, setCount] = useState<number | null>(null);
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    const again = () => setAsked((n) => n + 1);
    window.addEventListener(CART_CHANGED, again);
    return () => window.removeEventListener(CART_CHANGED, again);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    fetch("/api/cart", { cache: "no-store", signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: unknown) => {
        const { itemCount, signedIn } = (body ?? {}) as { itemCount?: unknown; signedIn?: unknown };
        if (!Number.isInteger(itemCount)) return;
        setCount(itemCount as number);
        publishHeaderState({ itemCount: itemCount as number, signedIn: signedIn === true });
      })
      // Offline or aborted: the badge keeps what it showed.
      .catch(() => {});
    return () => controller.abort();
  }, [pathname, query, asked]);

  return <CartLink lang={lang} count={count} />;
}

function CartLink({ lang, count }: { lang: Lang; count: number | null }) {
  const t = storefrontTexts(lang);
  return (
    <ShopLink href="/cart" className="flex items-center gap-2 rounded-md px-2 py-1 font-medium hover:bg-stone-100">
      <span>{t.shop.cart}</span>
      <span
        data-testid="cart-count"
        aria-hidden={count === null ? true : undefined}
        className="inline-flex min-h-7 min-w-7 justify-center rounded-full bg-brand-700 px-2 py-0.5 text-sm tabular-nums text-white"
      >
        {count ?? ""}
      </span>
      {count === null ? null : <span className="sr-only">{t.shop.cartUnit(count)}</span>}
    </ShopLink>
  );
}

/**
 * The header's way to the shopper's orders and account: "Encomendas" (this browser's orders) and
 * "Entrar" (the sign-in) until GET /api/cart, which the cart's count fetches, says a shopper is
 * signed in; then "A minha conta" alone, whose page lists every order of the phone (and links to
 * this browser's), which keeps the header on one line at a phone's width. No request of its own,
 * and nothing that makes a cached page depend on who looks at it.
 */
export function HeaderAccountLinks({ lang }: { lang: Lang }) {
  const state = useSyncExternalStore(
    subscribeToHeaderState,
    () => headerState,
    () => null,
  );
  const t = storefrontTexts(lang);
  const look = "text-sm font-medium text-stone-700 hover:underline";
  if (state?.signedIn)
    return (
      <ShopLink href="/account" data-testid="header-account" className={look}>
        {t.shop.myAccount}
      </ShopLink>
    );
  return (
    <>
      <ShopLink href="/orders" className={look}>
        {t.shop.myOrders}
      </ShopLink>
      <ShopLink href="/account/sign-in" data-testid="header-account" className={look}>
        {t.shop.signIn}
      </ShopLink>
    </>
  );
}
