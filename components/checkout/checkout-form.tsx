"use client";

import { useId, useState } from "react";
import { PayButton, type PayButtonLine } from "@/components/checkout/pay-button";
import type { CheckoutDetails } from "@/components/checkout/pay-button/request-order";
import { PromoCodeField, type AppliedPromo } from "@/components/cart/promo-code-field";
import {
  DeliveryAddressFields,
  municipalityKey,
  NEW_ADDRESS,
  type AddressField,
  type CheckoutAccount,
  type CheckoutSavedAddress,
  type TypedAddress,
} from "@/components/checkout/delivery-address";
import { ShopLink } from "@/components/ui/shop-link";
import { MAX_SAVED_ADDRESSES } from "@/lib/accounts/address-rules";
import { DEFAULT_PROVINCE } from "@/lib/checkout/address-fields";
import { deliveryAddressSchema } from "@/lib/checkout/checkout-rules";
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
export type { CheckoutAccount } from "@/components/checkout/delivery-address";

/** Where a guest signs in by phone, to come back here. */
const SIGN_IN_PATH = "/account/sign-in?next=/checkout";

/** The choice of a delivery whose zone follows the municipality (the zones that list theirs). */
const BY_MUNICIPALITY = "delivery";

/**
 * The checkout's form: the customer (name, phone, optional email and NIF), how the goods reach them (a
 * pickup point, or a delivery to an address), a promo code, and what they will pay, checked as
 * they type with the very schemas endpoint A applies (lib/checkout/checkout-rules.ts). The PayButton
 * appears once everything is valid. The amounts shown are the server's rules (the zone's fee
 * from lib/delivery/delivery-rules.ts, the discount from POST /api/cart/promo); endpoint A computes them
 * again and charges what it computed. A delivery's zone follows the municipality chosen from the
 * ones the zones serve; a zone listing none yet is offered by name, with a municipality typed.
 *
 * A signed-in shopper (`account`) finds the form filled from the account: the name, e-mail and
 * NIF (theirs to change for this order), the verified phone shown and never an input (endpoint A
 * takes the account's phone whatever is sent), and for a delivery their saved addresses, the
 * default chosen, or another typed, with "Guardar este endereço". A guest (`signIn`) is offered
 * the sign-in by phone.
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
  account,
  signIn = false,
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
  /** The signed-in shopper; absent for a guest. */
  account?: CheckoutAccount;
  /** Offer a guest the sign-in by phone (accounts are on). */
  signIn?: boolean;
}) {
  const t = dictionary(lang);
  const id = useId();
  const [fields, setFields] = useState({
    name: account?.name ?? "",
    phone: account?.phone ?? "",
    email: account?.email ?? "",
    nif: account?.nif ?? "",
  });
  const [touched, setTouched] = useState({ name: false, phone: false, email: false, nif: false });
  const restricted = delivery.zones.filter((candidate) => candidate.municipalities.length > 0);
  const unrestricted = delivery.zones.filter((candidate) => candidate.municipalities.length === 0);
  const served = restricted
    .flatMap((candidate) => candidate.municipalities.map((name) => ({ name, zone: candidate })))
    .sort((a, b) => a.name.localeCompare(b.name, "pt"));
  /** The served municipality a saved address names, spelt as the zones list it. */
  const servedNameOf = (saved: CheckoutSavedAddress) =>
    served.find((candidate) => municipalityKey(candidate.name) === municipalityKey(saved.municipality))?.name;
  const savedAddresses = account?.addresses ?? [];
  // The account's default address, when a zone serves it, chooses its delivery to begin with;
  // else the first method on offer is (a pickup point costs nothing).
  const preferred = savedAddresses[0];
  const [choice, setChoice] = useState(
    preferred && servedNameOf(preferred)
      ? BY_MUNICIPALITY
      : delivery.pickupPoints[0]
        ? `pickup:${delivery.pickupPoints[0].id}`
        : restricted[0]
          ? BY_MUNICIPALITY
          : unrestricted[0]
            ? `zone:${unrestricted[0].id}`
            : "",
  );
  const [addressChoice, setAddressChoice] = useState(preferred?.id ?? NEW_ADDRESS);
  const [keepAddress, setKeepAddress] = useState(false);
  const [address, setAddress] = useState<TypedAddress>({
    province: DEFAULT_PROVINCE,
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
  // A saved address the chosen delivery can take (by municipality: one a zone serves); one it
  // cannot take gives way to the first it can, or to an address typed.
  const deliverable = (saved: CheckoutSavedAddress) => !byMunicipality || servedNameOf(saved) !== undefined;
  const usable = savedAddresses.filter(deliverable);
  const savedChoice =
    addressChoice === NEW_ADDRESS ? undefined : (usable.find((saved) => saved.id === addressChoice) ?? usable[0]);
  const deliveryAddress: TypedAddress = savedChoice
    ? {
        province: savedChoice.province,
        municipality: (byMunicipality && servedNameOf(savedChoice)) || savedChoice.municipality,
        neighbourhood: savedChoice.neighbourhood,
        street: savedChoice.street,
        reference: savedChoice.reference,
      }
    : address;
  const zone = byMunicipality
    ? served.find((candidate) => candidate.name === deliveryAddress.municipality)?.zone
    : choice.startsWith("zone:")
      ? unrestricted.find((candidate) => `zone:${candidate.id}` === choice)
      : undefined;
  const point = choice.startsWith("pickup:")
    ? delivery.pickupPoints.find((candidate) => `pickup:${candidate.id}` === choice)
    : undefined;
  const offersDelivery = delivery.zones.length + delivery.pickupPoints.length > 0;
  const parsedAddress = deliveryAddressSchema.safeParse(deliveryAddress);

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
  // Only for an address typed now, and only while the account may keep one more.
  const savingAddress =
    account !== undefined && account.canSaveAddress && !savedChoice && deliveryChoice?.method === "delivery";

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
      {signIn && !account && (
        <p data-testid="checkout-sign-in" className="text-sm text-stone-600">
          {t.checkout.signInPrompt}{" "}
          <ShopLink href={SIGN_IN_PATH} className="font-medium text-brand-700 hover:underline">
            {t.checkout.signIn}
          </ShopLink>
        </p>
      )}
      <form noValidate onSubmit={(event) => event.preventDefault()} className="flex flex-col gap-2">
        {field("name", t.checkout.name, { autoComplete: "name", maxLength: 100 })}
        {account ? (
          // The account's verified phone: what the order carries, so nothing to type or change here.
          <div className="flex flex-col gap-1">
            <p className="text-sm font-medium">{t.checkout.phone}</p>
            <p
              data-testid="checkout-phone"
              className="rounded-md border border-stone-200 bg-stone-100 px-3 py-2 text-base tabular-nums"
            >
              {account.phone}
            </p>
            <p className="min-h-5 text-sm text-stone-500">{t.checkout.phoneOfAccount}</p>
          </div>
        ) : (
          field(
            "phone",
            t.checkout.phone,
            { type: "tel", autoComplete: "tel", inputMode: "tel", maxLength: 24 },
            t.checkout.phoneHint,
          )
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
          <DeliveryAddressFields
            t={t}
            id={id}
            address={address}
            onChange={(key, value) => setAddress((current) => ({ ...current, [key]: value }))}
            touched={addressTouched}
            onTouch={(key) => setAddressTouched((current) => ({ ...current, [key]: true }))}
            municipalities={byMunicipality ? served.map((candidate) => candidate.name) : null}
            municipalityHint={
              byMunicipality ? (zone ? `${zone.name}: ${zoneNote(zone)}` : t.checkout.municipalityHint) : undefined
            }
            saved={
              account && {
                account,
                chosen: savedChoice?.id ?? NEW_ADDRESS,
                deliverable,
                onChoose: setAddressChoice,
                note: byMunicipality && zone ? `${zone.name}: ${zoneNote(zone)}` : undefined,
                keep: keepAddress,
                onKeep: setKeepAddress,
                max: MAX_SAVED_ADDRESSES,
              }
            }
          />
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
              ...(savingAddress && keepAddress ? { saveAddress: true } : {}),
            }}
          />
        ) : (
          <p className="text-sm text-stone-600">{t.checkout.fillToPay}</p>
        )}
      </div>
    </section>
  );
}
