import { readFlash, type PageQuery } from "@/lib/flash";
import { MUNICIPALITY_LIMITS } from "@/lib/delivery/municipalities";
import {
  DELIVERY_DONE,
  DELIVERY_ERRORS,
  DELIVERY_FIELDS,
  DELIVERY_LIMITS,
  type DeliveryField,
  type DeliveryZone,
  type PickupPoint,
} from "@/lib/delivery/zones-admin";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { Flash } from "./flash";
import { ActiveBox, buttonClass, Field, fieldClass } from "./product-form";

/**
 * The forms of /admin/delivery, a delivery zone's and a pickup point's (new, or a row to edit), and
 * the message of their last outcome.
 */

/** The outcome of the last delivery form, from its redirect's `?done=`, `?error=` and `?field=`. */
export const deliveryFlashOf = (query: PageQuery) =>
  readFlash(query, { done: DELIVERY_DONE, errors: DELIVERY_ERRORS, fields: DELIVERY_FIELDS });

export function DeliveryFlash({ t, flash }: { t: Dictionary; flash: ReturnType<typeof deliveryFlashOf> }) {
  const text = t.admin.deliveryMethods;
  const labels: Record<DeliveryField, string> = {
    name: text.name,
    feeAoa: text.feeAoa,
    freeFromAoa: text.freeFromAoa,
    estimatedDays: text.estimatedDays,
    address: text.address,
    hours: text.hours,
    active: text.status,
    position: text.position,
    municipalities: text.municipalities,
  };
  if (flash.error)
    return (
      <Flash kind="error" testId="delivery-flash">
        {text.errors[flash.error]}
        {flash.field && ` ${text.fieldError(labels[flash.field])}`}
      </Flash>
    );
  if (flash.done)
    return (
      <Flash kind="done" testId="delivery-flash">
        {text.done[flash.done]}
      </Flash>
    );
  return null;
}

/** A delivery zone's form: a new one (`zone` absent), or a row's edit. Posts to app/api/admin/delivery-zones. */
export function DeliveryZoneForm({ t, zone }: { t: Dictionary; zone?: DeliveryZone }) {
  const text = t.admin.deliveryMethods;
  const id = (name: string) => `zone-${zone?.id ?? "new"}-${name}`;
  return (
    <form
      method="post"
      action={zone ? `/api/admin/delivery-zones/${zone.id}` : "/api/admin/delivery-zones"}
      className="flex flex-col gap-3"
    >
      <Field label={text.name} htmlFor={id("name")}>
        <input
          id={id("name")}
          name="name"
          required
          maxLength={DELIVERY_LIMITS.nameMax}
          defaultValue={zone?.name}
          className={fieldClass}
        />
      </Field>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label={text.feeAoa} htmlFor={id("fee")} hint={text.feeHint}>
          <input
            id={id("fee")}
            name="feeAoa"
            type="number"
            required
            min={0}
            max={DELIVERY_LIMITS.feeMax}
            step={1}
            defaultValue={zone?.feeAoa}
            aria-describedby={`${id("fee")}-hint`}
            className={fieldClass}
          />
        </Field>
        <Field label={text.freeFromAoa} htmlFor={id("free")} hint={text.freeFromHint}>
          <input
            id={id("free")}
            name="freeFromAoa"
            type="number"
            min={1}
            max={DELIVERY_LIMITS.feeMax}
            step={1}
            defaultValue={zone?.freeFromAoa ?? ""}
            aria-describedby={`${id("free")}-hint`}
            className={fieldClass}
          />
        </Field>
        <Field label={text.estimatedDays} htmlFor={id("days")}>
          <input
            id={id("days")}
            name="estimatedDays"
            type="number"
            min={1}
            max={DELIVERY_LIMITS.daysMax}
            step={1}
            defaultValue={zone?.estimatedDays ?? ""}
            className={fieldClass}
          />
        </Field>
        <Field label={text.position} htmlFor={id("position")}>
          <input
            id={id("position")}
            name="position"
            type="number"
            min={0}
            max={DELIVERY_LIMITS.positionMax}
            step={1}
            defaultValue={zone?.position ?? 0}
            className={fieldClass}
          />
        </Field>
      </div>
      <Field label={text.municipalities} htmlFor={id("municipalities")} hint={text.municipalitiesHint}>
        <textarea
          id={id("municipalities")}
          name="municipalities"
          rows={4}
          maxLength={MUNICIPALITY_LIMITS.perZone * (MUNICIPALITY_LIMITS.nameMax + 1)}
          defaultValue={zone?.municipalities.join("\n")}
          aria-describedby={`${id("municipalities")}-hint`}
          className={fieldClass}
        />
      </Field>
      <ActiveBox id={id("active")} label={text.active} checked={zone?.active ?? true} />
      <div>
        <button type="submit" className={buttonClass}>
          {zone ? text.save : text.create}
        </button>
      </div>
    </form>
  );
}

/** A pickup point's form: a new one (`point` absent), or a row's edit. Posts to app/api/admin/pickup-points. */
export function PickupPointForm({ t, point }: { t: Dictionary; point?: PickupPoint }) {
  const text = t.admin.deliveryMethods;
  const id = (name: string) => `point-${point?.id ?? "new"}-${name}`;
  return (
    <form
      method="post"
      action={point ? `/api/admin/pickup-points/${point.id}` : "/api/admin/pickup-points"}
      className="flex flex-col gap-3"
    >
      <Field label={text.name} htmlFor={id("name")}>
        <input
          id={id("name")}
          name="name"
          required
          maxLength={DELIVERY_LIMITS.nameMax}
          defaultValue={point?.name}
          className={fieldClass}
        />
      </Field>
      <Field label={text.address} htmlFor={id("address")}>
        <input
          id={id("address")}
          name="address"
          required
          maxLength={DELIVERY_LIMITS.addressMax}
          defaultValue={point?.address}
          className={fieldClass}
        />
      </Field>
      <Field label={text.hours} htmlFor={id("hours")} hint={text.hoursHint}>
        <input
          id={id("hours")}
          name="hours"
          required
          maxLength={DELIVERY_LIMITS.hoursMax}
          defaultValue={point?.hours}
          aria-describedby={`${id("hours")}-hint`}
          className={fieldClass}
        />
      </Field>
      <Field label={text.position} htmlFor={id("position")}>
        <input
          id={id("position")}
          name="position"
          type="number"
          min={0}
          max={DELIVERY_LIMITS.positionMax}
          step={1}
          defaultValue={point?.position ?? 0}
          className={`${fieldClass} sm:max-w-48`}
        />
      </Field>
      <ActiveBox id={id("active")} label={text.activePoint} checked={point?.active ?? true} />
      <div>
        <button type="submit" className={buttonClass}>
          {point ? text.save : text.create}
        </button>
      </div>
    </form>
  );
}
