"use client";

import { useId, useState } from "react";
import { PayButton, type PayButtonLine } from "@/components/pay-button";
import { customerSchema } from "@/lib/checkout/request";
import { dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";

/**
 * The customer's name and phone, checked as they type with the very schema endpoint A applies
 * (lib/checkout/request.ts), and the PayButton once both are valid. The button checks out the
 * server's cart; `lines` only describe it to the hosted checkout.
 */
export function CheckoutForm({
  lang,
  publishableKey,
  sdkUrl,
  nonce,
  lines,
}: {
  lang: Lang;
  publishableKey: string;
  sdkUrl: string;
  nonce?: string;
  lines: PayButtonLine[];
}) {
  const t = dictionary(lang);
  const id = useId();
  const [fields, setFields] = useState({ name: "", phone: "" });
  const [touched, setTouched] = useState({ name: false, phone: false });
  const parsed = customerSchema.safeParse(fields);
  const invalid = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0]));
  const errors = {
    name: touched.name && invalid.has("name") ? t.checkout.nameInvalid : undefined,
    phone: touched.phone && invalid.has("phone") ? t.checkout.phoneInvalid : undefined,
  };

  const field = (key: "name" | "phone", label: string, props: React.InputHTMLAttributes<HTMLInputElement>) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${key}`} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        name={key}
        value={fields[key]}
        onChange={(event) => setFields((current) => ({ ...current, [key]: event.target.value }))}
        onBlur={() => setTouched((current) => ({ ...current, [key]: true }))}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={`${id}-${key}-message`}
        required
        className="rounded-md border border-stone-300 px-3 py-2 text-base aria-invalid:border-red-600"
        {...props}
      />
      {/* Reserved line: an error appearing does not push the button down. */}
      <p id={`${id}-${key}-message`} className="min-h-5 text-sm text-red-700">
        {errors[key] ?? (key === "phone" ? <span className="text-stone-500">{t.checkout.phoneHint}</span> : null)}
      </p>
    </div>
  );

  return (
    <section aria-labelledby={`${id}-customer`} className="flex flex-col gap-4">
      <h2 id={`${id}-customer`} className="text-lg font-medium">
        {t.checkout.customer}
      </h2>
      <form noValidate onSubmit={(event) => event.preventDefault()} className="flex flex-col gap-2">
        {field("name", t.checkout.name, { autoComplete: "name", maxLength: 100 })}
        {field("phone", t.checkout.phone, { type: "tel", autoComplete: "tel", inputMode: "tel", maxLength: 24 })}
      </form>
      <h2 className="text-lg font-medium">{t.checkout.payment}</h2>
      <div className="min-h-14">
        {parsed.success ? (
          <PayButton
            publishableKey={publishableKey}
            sdkUrl={sdkUrl}
            nonce={nonce}
            lang={lang}
            lines={lines}
            customer={{ name: parsed.data.name, phone: parsed.data.phone }}
          />
        ) : (
          <p className="text-sm text-stone-600">{t.checkout.fillToPay}</p>
        )}
      </div>
    </section>
  );
}
