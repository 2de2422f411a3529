"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { savedAddressSchema } from "@/lib/accounts/address-rules";
import { ADDRESS_AUTOCOMPLETE, ADDRESS_FIELDS, type AddressField } from "@/lib/checkout/address-fields";
import { ADDRESS_LIMITS } from "@/lib/checkout/checkout-rules";

/**
 * A saved delivery address, added or changed (/account/addresses/new, /account/addresses/<id>):
 * the checkout's fields in the checkout's order, its municipalities to choose from when the shop
 * delivers only to those (lib/checkout/address-fields.ts), checked as the shopper types with the
 * very schema the server applies (lib/accounts/address-rules.ts). A plain form posting to
 * /api/account/addresses…, so it works without JavaScript; with it, a form that would be refused
 * is not sent, and the first field to fix gets the focus.
 */

export interface AddressFormTexts {
  labels: Record<AddressField, string>;
  /** What to fix in each field ("Preencha este campo (até 80 caracteres)."). */
  invalid: Record<AddressField, string>;
  referenceHint: string;
  municipalityHint: string;
  chooseMunicipality: string;
  useAsDefault: string;
  save: string;
}

export function AddressForm({
  action,
  initial,
  isDefault,
  municipalities,
  texts,
  refusedField,
}: {
  /** Where the form posts. */
  action: string;
  initial: Record<AddressField, string>;
  /** The address is the default already: it stays so, and the box is not offered. */
  isDefault: boolean;
  /** The municipalities to choose from; null: typed. */
  municipalities: string[] | null;
  texts: AddressFormTexts;
  /** The field the server refused, when the page came back with a refusal. */
  refusedField?: AddressField;
}) {
  const id = useId();
  const [address, setAddress] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<AddressField, boolean>>>(
    refusedField ? { [refusedField]: true } : {},
  );
  const form = useRef<HTMLFormElement>(null);
  const parsed = savedAddressSchema.safeParse(address);
  const bad = new Set(parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0]));
  // A municipality no longer served (or one saved before the list) stays choosable as it is.
  const choices =
    municipalities && initial.municipality && !municipalities.includes(initial.municipality)
      ? [initial.municipality, ...municipalities]
      : municipalities;

  const submit = (event: FormEvent) => {
    if (parsed.success) return;
    event.preventDefault();
    setTouched(Object.fromEntries(ADDRESS_FIELDS.map((key) => [key, true])));
    const first = ADDRESS_FIELDS.find((key) => bad.has(key));
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const field = (key: AddressField) => {
    const error = touched[key] && bad.has(key) ? texts.invalid[key] : undefined;
    const hint =
      key === "reference"
        ? texts.referenceHint
        : key === "municipality" && choices
          ? texts.municipalityHint
          : undefined;
    const common = {
      id: `${id}-${key}`,
      name: key,
      value: address[key],
      onBlur: () => setTouched((current) => ({ ...current, [key]: true })),
      "aria-invalid": error ? true : undefined,
      "aria-describedby": `${id}-${key}-message`,
      autoComplete: ADDRESS_AUTOCOMPLETE[key],
      required: true,
      className: "rounded-md border border-stone-300 px-3 py-2 text-base aria-invalid:border-red-600",
    };
    return (
      <div key={key} className="flex flex-col gap-1">
        <label htmlFor={common.id} className="text-sm font-medium">
          {texts.labels[key]}
        </label>
        {key === "municipality" && choices ? (
          <select
            {...common}
            onChange={(event) => setAddress((current) => ({ ...current, municipality: event.target.value }))}
          >
            <option value="">{texts.chooseMunicipality}</option>
            {choices.map((name) => (
              <option key={name} value={name}>
                {name}
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
        <p id={`${id}-${key}-message`} className="min-h-5 text-sm text-red-700">
          {error ?? (hint ? <span className="text-stone-600">{hint}</span> : null)}
        </p>
      </div>
    );
  };

  return (
    <form
      ref={form}
      method="post"
      action={action}
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4"
    >
      {ADDRESS_FIELDS.map(field)}
      {!isDefault && (
        <label className="flex items-start gap-2 py-2">
          <input type="checkbox" name="makeDefault" value="on" className="mt-1" />
          <span>{texts.useAsDefault}</span>
        </label>
      )}
      <button
        type="submit"
        className="self-start rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-600"
      >
        {texts.save}
      </button>
    </form>
  );
}
