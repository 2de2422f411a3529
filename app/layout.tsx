import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import { setLanguageAction } from "@/app/actions";
import { SiteHeader } from "@/components/site-header";
import { TestModeBanner } from "@/components/test-mode-banner";
import { getCart } from "@/lib/cart";
import { CART_COOKIE, readCartId } from "@/lib/checkout/cookies";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { htmlLang } from "@/lib/i18n/languages";
import { getLang } from "@/lib/i18n/server";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return {
    // Relative canonical and Open Graph URLs resolve against the shop's public address.
    metadataBase: new URL(getEnv().appUrl),
    title: { default: t.shop.name, template: `%s · ${t.shop.name}` },
    description: t.shop.description,
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const { lang, t } = await getLang();
  const cart = await getCart(db(), readCartId((await cookies()).get(CART_COOKIE)?.value));
  return (
    <html lang={htmlLang(lang)}>
      <body className="min-h-screen bg-stone-50 font-sans text-stone-900 antialiased">
        <TestModeBanner t={t} mode={getEnv().pay.mode} />
        <SiteHeader t={t} lang={lang} cartCount={cart?.itemCount ?? 0} setLanguage={setLanguageAction} />
        <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
      </body>
    </html>
  );
}
