import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/accounts/sign-in-form";
import { shopperAuth } from "@/lib/accounts/shopper-auth";
import { firstOf } from "@/lib/flash";
import { ACCOUNT_PAGE } from "@/lib/http/account-requests";
import { getLang } from "@/lib/http/request-lang";
import { safeShopPath } from "@/lib/http/return-path";
import { currentShopper } from "@/lib/http/shopper-session";

// Signing in with a phone and a code (components/accounts/sign-in-form.tsx), then on to `?next=`:
// a page of the shop's own (lib/http/return-path.ts), the account by default. Someone already
// signed in goes there at once. Rendered per request: it reads the session.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.account.signIn.title, robots: { index: false } };
}

type Query = Record<string, string | string[] | undefined>;

export default async function SignInPage({ searchParams }: { searchParams: Promise<Query> }) {
  const [{ lang, t }, query, shopper] = await Promise.all([getLang(), searchParams, currentShopper()]);
  const next = safeShopPath(firstOf(query.next), ACCOUNT_PAGE);
  if (shopper) redirect(next);
  const texts = t.account.signIn;
  return (
    <div className="mx-auto flex max-w-md flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{texts.title}</h1>
        <p className="text-stone-600">{texts.intro}</p>
      </div>
      {shopperAuth() ? (
        <SignInForm lang={lang} next={next} />
      ) : (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          {texts.errors.off}
        </p>
      )}
      <p className="text-sm text-stone-600">{texts.firstTime}</p>
    </div>
  );
}
