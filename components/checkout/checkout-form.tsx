"use client";

import { useId, useState } from "react";
import { PayButton, type PayButtonLine } from "@/components/checkout/pay-button";
import type { CheckoutDetails } from "@/components/checkout/pay-button/request-order";
import { PromoCodeField, type AppliedPromo } from "@/components/cart/promo-code-field";
import { ADDRESS_LIMITS, deliveryAddressSchema } from "@/lib/checkout/checkout-rules";
import { customerSchema } from "@/lib/orders/customer-rules";
import { NOT_A_NAME } from "@/lib/orders/customer-name-rules";
import { NIF_INPUT_MAX } from "@/lib/nif";
import type { DeliveryOptions } from "@/lib/delivery/zones";
import { deliveryFee } from "@/lib/delivery/delivery-rules";
import { dictionary } from "@/lib/i18n/dictionaries";
import type { Lang } from "@/lib/i18n/languages";
import { formatAoa } from "@/lib/money";

/** The active delivery methods, as GET /api/delivery-options answers them. */
export type CheckoutDeliveryOptions = DeliveryOptions;

/** The choice of a delivery whose zone follows the municipality (the zones that list theirs). */
const BY_MUNICIPALITY = "delivery";

type AddressField = keyof typeof ADDRESS_LIMITS;
const ADDRESS_FIELDS: AddressField[] = ["province", "municipality", "neighbourhood", "street", "reference"];
const ADDRESS_AUTOCOMPLETE: Record<AddressField, string> = {
  province: "address-level1",
  municipality: "address-level2",
  neighbourhood: "address-level3",
  street: "street-address",
  reference: "off",
};

/**
 * The checkout's form: the customer (name, phone, optional email and NIF), how the goods reach them (a
 * pickup point, or a delivery to an address), a promo code, and what they will pay, checked as
 * they type with the very schemas endpoint A applies (lib/checkout/checkout-rules.ts). The PayButton
 * appears once everything is valid. The amounts shown are the server's rules (the zone's fee
 * from lib/delivery/delivery-rules.ts, the discount from POST /api/cart/promo); endpoint A computes them
 * again and charges what it computed. A delivery's zone follows the municipality chosen from the
 * ones the zones serve; a zone listing none yet is offered by name, with a municipality typed.
 */
export function CheckoutForm({
  lang,
  publishableKey,
  sdkUrl,
  nonce,
  lines,
  subtotalAoa,
  delivery,
  initialPromoCode,
}: {
  lang: Lang;
  publishableKey: string;
  sdkUrl: string;
  nonce?: string;
  lines: PayButtonLine[];
  subtotalAoa: number;
  delivery: CheckoutDeliveryOptions;
  /** A code applied on the cart (its link to the checkout carries it): applied again here. */
  initialPromoCode?: string;
}) {
  const t = dictionary(lang);
  const id = useId();
  const [fields, setFields] = useState({ name: "", phone: "", email: "", nif: "" });
  const [touched, setTouched] = useState({ name: false, phone: false, email: false, nif: false });
  const restricted = delivery.zones.filter((candidate) => candidate.municipalities.length > 0);
  const unrestricted = delivery.zones.filter((candidate) => candidate.municipalities.length === 0);
  const served = restricted
    .flatMap((candidate) => candidate.municipalities.map((name) => ({ name, zone: candidate })))
    .sort((a, b) => a.name.localeCompare(b.name, "pt"));
  // The first method on offer is chosen to begin with (a pickup point costs nothing).
  const [choice, setChoice] = useState(
    delivery.pickupPoints[0]
      ? `pickup:${delivery.pickupPoints[0].id}`
      : restricted[0]
        ? BY_MUNICIPALITY
        : unrestricted[0]
          ? `zone:${unrestricted[0].id}`
          : "",
  );
  const [address, setAddress] = useState<Record<AddressField, string>>({
    province: "Luanda",
    municipality: "",
    neighbourhood: "",
    street: "",
    reference: "",
  });
  const [addressTouched, setAddressTouched] = useState<Partial<Record<AddressField, boolean>>>({});
  const [promo, setPromo] = useState<AppliedPromo | null>(null);

  const parsed = customerSchema.safeParse({ ...fields, email: fields.email.trim() === "" ? undefined : fields.email });
  const invalid = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0]));
  // A name carrying an address, a phone or markup gets words of its own: "enter your name" would puzzle.
  const notAName = !parsed.success && parsed.error.issues.some((issue) => issue.message === NOT_A_NAME);
  const errors = {
    name:
      touched.name && invalid.has("name") ? (notAName ? t.checkout.nameNotAName : t.checkout.nameInvalid) : undefined,
    phone: touched.phone && invalid.has("phone") ? t.checkout.phoneInvalid : undefined,
    email: touched.email && invalid.has("email") ? t.checkout.emailInvalid : undefined,
    nif: touched.nif && invalid.has("nif") ? t.checkout.nifInvalid : undefined,
  };

  const byMunicipality = choice === BY_MUNICIPALITY;
  const zone = byMunicipality
    ? served.find((candidate) => candidate.name === address.municipality)?.zone
    : choice.startsWith("zone:")
      ? unrestricted.find((candidate) => `zone:${candidate.id}` === choice)
      : undefined;
  const point = choice.startsWith("pickup:")
    ? delivery.pickupPoints.find((candidate) => `pickup:${candidate.id}` === choice)
    : undefined;
  const offersDelivery = delivery.zones.length + delivery.pickupPoints.length > 0;
  const parsedAddress = deliveryAddressSchema.safeParse(address);
  const badAddress = new Set(parsedAddress.success ? [] : parsedAddress.error.issues.map((issue) => issue.path[0]));

  const phoneForPromo = customerSchema.shape.phone.safeParse(fields.phone);
  const discountAoa = promo?.discountAoa ?? 0;
  const feeAoa = zone ? deliveryFee(zone, subtotalAoa - discountAoa) : 0;
  const totalAoa = subtotalAoa - discountAoa + feeAoa;

  const deliveryChoice: CheckoutDetails["delivery"] | undefined = point
    ? { method: "pickup", pickupPointId: point.id }
    : zone && parsedAddress.success
      ? // The server finds the zone from the municipality; a zone that lists none is named.
        { method: "delivery", ...(byMunicipality ? {} : { zoneId: zone.id }), address: parsedAddress.data }
      : undefined;
  const ready = parsed.success && (!offersDelivery || deliveryChoice !== undefined);

  const field = (
    key: "name" | "phone" | "email" | "nif",
    label: string,
    props: React.InputHTMLAttributes<HTMLInputElement>,
    hint?: string,
  ) => (
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
        required={key === "name" || key === "phone"}
        className="rounded-md border border-stone-300 px-3 py-2 text-base aria-invalid:border-red-600"
        {...props}
      />
      {/* Reserved line: an error appearing does not push the button down. */}
      <p id={`${id}-${key}-message`} className="min-h-5 text-sm text-red-700">
        {errors[key] ?? (hint ? <span className="text-stone-500">{hint}</span> : null)}
      </p>
    </div>
  );

  const addressField = (key: AddressField) => {
    const error =
      addressTouched[key] && badAddress.has(key) ? t.checkout.addressInvalid(ADDRESS_LIMITS[key]) : undefined;
    const hint =
      key === "reference"
        ? t.checkout.referenceHint
        : key === "municipality" && byMunicipality
          ? zone
            ? `${zone.name}: ${zoneNote(zone)}`
            : t.checkout.municipalityHint
          : undefined;
    const common = {
      id: `${id}-address-${key}`,
      name: key,
      value: address[key],
      onBlur: () => setAddressTouched((current) => ({ ...current, [key]: true })),
      "aria-invalid": error ? true : undefined,
      "aria-describedby": `${id}-address-${key}-message`,
      autoComplete: ADDRESS_AUTOCOMPLETE[key],
      required: true,
      className: "rounded-md border border-stone-300 px-3 py-2 text-base aria-invalid:border-red-600",
    };
    return (
      <div key={key} className="flex flex-col gap-1">
        <label htmlFor={`${id}-address-${key}`} className="text-sm font-medium">
          {t.checkout[key]}
        </label>
        {key === "municipality" && byMunicipality ? (
          <select
            {...common}
            onChange={(event) => setAddress((current) => ({ ...current, municipality: event.target.value }))}
          >
            <option value="">{t.checkout.chooseMunicipality}</option>
            {served.map((candidate) => (
              <option key={candidate.name} value={candidate.name}>
                {candidate.name}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...common}
            onChange={(event) => setAddress((current) => ({ ...current, [key]: event.target.value }))}
            maxLength={ADDRESS_LIMITS[key]}
          />
        )}
        <p id={`${id}-address-${key}-message`} className="min-h-5 text-sm text-red-700">
          {error ?? (hint ? <span className="text-stone-500">{hint}</span> : null)}
        </p>
      </div>
    );
  };

  const zoneNote = (candidate: CheckoutDeliveryOptions["zones"][number]) =>
    [
      candidate.feeAoa === 0 ? t.checkout.free : formatAoa(candidate.feeAoa),
      candidate.freeFromAoa !== null && candidate.feeAoa > 0
        ? t.checkout.freeFrom(formatAoa(candidate.freeFromAoa))
        : null,
      candidate.estimatedDays !== null ? t.checkout.estimatedDays(candidate.estimatedDays) : null,
    ]
      .filter(Boolean)
      .join(" · ");

  const radio = (value: string, title: string, note: string, detail?: string) => (
    <label
      key={value}
      className="flex cursor-pointer items-start gap-3 rounded-lg border border-stone-200 bg-white px-3 py-2 has-checked:border-brand-700 has-checked:ring-1 has-checked:ring-brand-700"
    >
      <input
        type="radio"
        name="delivery"
        value={value}
        checked={choice === value}
        onChange={() => setChoice(value)}
        className="mt-1"
      />
      <span className="flex flex-col">
        <span className="font-medium">{title}</span>
        {detail && <span className="text-sm text-stone-600">{detail}</span>}
        <span className="text-sm text-stone-600">{note}</span>
      </span>
    </label>
  );

  return (
    <section aria-labelledby={`${id}-customer`} className="flex flex-col gap-4">
      <h2 id={`${id}-customer`} className="text-lg font-medium">
        {t.checkout.customer}
      </h2>
      <form noValidate onSubmit={(event) => event.preventDefault()} className="flex flex-col gap-2">
        {field("name", t.checkout.name, { autoComplete: "name", maxLength: 100 })}
        {field(
          "phone",
          t.checkout.phone,
          { type: "tel", autoComplete: "tel", inputMode: "tel", maxLength: 24 },
          t.checkout.phoneHint,
        )}
        {field(
          "email",
          t.checkout.email,
          { type: "email", autoComplete: "email", maxLength: 254 },
          t.checkout.emailHint,
        )}
        {field(
          "nif",
          t.checkout.nif,
          { autoComplete: "off", autoCapitalize: "characters", spellCheck: false, maxLength: NIF_INPUT_MAX },
          t.checkout.nifHint,
        )}

        {offersDelivery && (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-lg font-medium">{t.checkout.delivery}</legend>
            {delivery.pickupPoints.map((candidate) =>
              radio(
                `pickup:${candidate.id}`,
                t.checkout.pickupAt(candidate.name),
                `${t.checkout.free} · ${candidate.hours}`,
                candidate.address,
              ),
            )}
            {restricted.length > 0 && radio(BY_MUNICIPALITY, t.checkout.homeDelivery, t.checkout.feeByMunicipality)}
            {unrestricted.map((candidate) =>
              radio(`zone:${candidate.id}`, t.checkout.deliverTo(candidate.name), zoneNote(candidate)),
            )}
          </fieldset>
        )}
        {(zone || byMunicipality) && (
          <fieldset className="mt-2 flex flex-col gap-1">
            <legend className="mb-2 text-base font-medium">{t.checkout.address}</legend>
            {ADDRESS_FIELDS.map(addressField)}
          </fieldset>
        )}
      </form>

      <PromoCodeField
        lang={lang}
        initialCode={initialPromoCode}
        phone={phoneForPromo.success ? phoneForPromo.data : undefined}
        onChange={setPromo}
      />

      <h2 className="text-lg font-medium">{t.checkout.payment}</h2>
      <dl
        data-testid="checkout-breakdown"
        className="flex flex-col gap-1 rounded-xl border border-stone-200 bg-white px-4 py-3"
      >
        <div className="flex justify-between gap-4">
          <dt>{t.checkout.subtotal}</dt>
          <dd className="tabular-nums">{formatAoa(subtotalAoa)}</dd>
        </div>
        {promo && (
          <div className="flex justify-between gap-4 text-emerald-800">
            <dt>{t.checkout.discount(promo.code)}</dt>
            <dd data-testid="checkout-discount" className="tabular-nums">
              −{formatAoa(discountAoa)}
            </dd>
          </div>
        )}
        {offersDelivery && (
          <div className="flex justify-between gap-4">
            <dt>{t.checkout.deliveryFee}</dt>
            <dd data-testid="checkout-delivery-fee" className="tabular-nums">
              {/* No fee before the municipality that decides it is chosen. */}
              {byMunicipality && !zone ? "—" : feeAoa === 0 ? t.checkout.free : formatAoa(feeAoa)}
            </dd>
          </div>
        )}
        <div className="flex justify-between gap-4 text-lg font-semibold">
          <dt>{t.checkout.total}</dt>
          <dd data-testid="checkout-total" className="tabular-nums">
            {formatAoa(totalAoa)}
          </dd>
        </div>
      </dl>
      <div className="min-h-14">
        {ready && parsed.success ? (
          <PayButton
            publishableKey={publishableKey}
            sdkUrl={sdkUrl}
            nonce={nonce}
            lang={lang}
            lines={lines}
            customer={{ name: parsed.data.name, phone: parsed.data.phone }}
            details={{
              ...(parsed.data.email ? { email: parsed.data.email } : {}),
              ...(parsed.data.nif ? { nif: parsed.data.nif } : {}),
              ...(deliveryChoice ? { delivery: deliveryChoice } : {}),
              ...(promo ? { promoCode: promo.code } : {}),
            }}
          />
        ) : (
          <p className="text-sm text-stone-600">{t.checkout.fillToPay}</p>
        )}
      </div>
    </section>
  );
}
