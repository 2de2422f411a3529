import Link from "next/link";
import { getLang } from "@/lib/i18n/server";

export default async function NotFound() {
  const { t } = await getLang();
  return (
    <section className="flex flex-col items-start gap-3">
      <h1 className="text-2xl font-semibold tracking-tight">{t.notFound.title}</h1>
      <p className="text-stone-600">{t.notFound.body}</p>
      <Link href="/" className="text-brand-700 hover:underline">
        {t.notFound.home}
      </Link>
    </section>
  );
}
