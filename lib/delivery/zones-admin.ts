import { z } from "zod";
import type { Database } from "../db/client";
import { isKnownError, isUniqueViolation } from "../db/known-error";
import { Rollback, rolledBack, type Refusal } from "../refusal";
import { municipalitiesByZone, municipalitiesInput, replaceMunicipalities } from "./municipalities";
import { activeFlag, formIntegerBetween, formOptional, invalidInput, requiredText } from "../text-input";
import { isUuid } from "../uuid";
import { DELIVERY_METHOD_ORDER } from "./zones";
import { Prisma } from "../generated/prisma/client";
import { recordStaffEvent, type Actor } from "../admin/staff-events";
import { changedFields, recordedFields } from "../admin/event-changes";

/**
 * The back office's delivery methods (/admin/delivery, app/api/admin/delivery-zones and
 * app/api/admin/pickup-points): create and edit delivery zones and pickup points, list them all,
 * and the refusals and form fields its pages read. Names are unique per kind (409 name_taken,
 * never renamed); one municipality is served by one zone (409 municipality_served, naming it).
 * Each creation and edit is recorded with its person in staff_events, in its own transaction.
 */

export const DELIVERY_LIMITS = {
  nameMax: 80,
  addressMax: 300,
  hoursMax: 200,
  feeMax: 10_000_000,
  daysMax: 60,
  positionMax: 100_000,
} as const;

/** A delivery zone as the back office shows it. */
export interface DeliveryZone {
  id: string;
  name: string;
  feeAoa: number;
  freeFromAoa: number | null;
  estimatedDays: number | null;
  active: boolean;
  position: number;
  /** By name; none: not yet restricted (it takes any address the shopper picks it for). */
  municipalities: string[];
}

/** A pickup point as the back office shows it. */
export interface PickupPoint {
  id: string;
  name: string;
  address: string;
  hours: string;
  active: boolean;
  position: number;
}

const zoneFields = {
  id: true,
  name: true,
  feeAoa: true,
  freeFromAoa: true,
  estimatedDays: true,
  active: true,
  position: true,
} as const;
const pointFields = { id: true, name: true, address: true, hours: true, active: true, position: true } as const;

const position = z.preprocess(
  (value) => (value === "" || value === undefined || value === null ? 0 : value),
  formIntegerBetween(0, DELIVERY_LIMITS.positionMax),
);

export const deliveryZoneInputSchema = z.object({
  name: requiredText(DELIVERY_LIMITS.nameMax),
  feeAoa: formIntegerBetween(0, DELIVERY_LIMITS.feeMax, " kwanza"),
  freeFromAoa: formOptional(formIntegerBetween(1, DELIVERY_LIMITS.feeMax, " kwanza")),
  estimatedDays: formOptional(formIntegerBetween(1, DELIVERY_LIMITS.daysMax, " days")),
  active: activeFlag,
  position,
  municipalities: municipalitiesInput,
});
export type DeliveryZoneInput = z.output<typeof deliveryZoneInputSchema>;

export const pickupPointInputSchema = z.object({
  name: requiredText(DELIVERY_LIMITS.nameMax),
  address: requiredText(DELIVERY_LIMITS.addressMax),
  hours: requiredText(DELIVERY_LIMITS.hoursMax),
  active: activeFlag,
  position,
});
export type PickupPointInput = z.output<typeof pickupPointInputSchema>;

export const DELIVERY_DONE = ["created", "saved"] as const;
export type DeliveryDone = (typeof DELIVERY_DONE)[number];
export const DELIVERY_ERRORS = ["invalid_input", "name_taken", "municipality_served"] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];
/** The form fields an error may name (?field=), of either kind. */
export const DELIVERY_FIELDS = [
  "name",
  "feeAoa",
  "freeFromAoa",
  "estimatedDays",
  "address",
  "hours",
  "active",
  "position",
  "municipalities",
] as const;
export type DeliveryField = (typeof DELIVERY_FIELDS)[number];

/** The statuses are the back office's form answers' (lib/http/admin-action.ts ActionOutcome). */
type DeliveryRefusal = Refusal<DeliveryError | "not_found", DeliveryField> & { status: 400 | 404 | 409 };
export type DeliveryZoneResult = { ok: true; done: DeliveryDone; zone: DeliveryZone } | DeliveryRefusal;
export type PickupPointResult = { ok: true; done: DeliveryDone; pickupPoint: PickupPoint } | DeliveryRefusal;

const notFound = (what: string): DeliveryRefusal => ({
  ok: false,
  status: 404,
  code: "not_found",
  message: `no such ${what}`,
});
const nameTaken = (what: string): DeliveryRefusal => ({
  ok: false,
  status: 409,
  code: "name_taken",
  message: `another ${what} already has this name`,
  field: "name",
});

/** A write's error as the admin's refusal, or the error again when it is a fault. */
function refusalOf(error: unknown, what: string): DeliveryRefusal {
  if (isUniqueViolation(error)) return nameTaken(what);
  if (isKnownError(error, "P2025")) return notFound(what);
  throw error;
}

export interface DeliveryDeps {
  db: Database;
  /** Who creates or edits the zone or point: recorded with it. */
  actor: Actor;
}

export async function createDeliveryZone(input: unknown, { db, actor }: DeliveryDeps): Promise<DeliveryZoneResult> {
  return saveDeliveryZone(null, input, db, actor);
}

export async function updateDeliveryZone(
  id: string,
  input: unknown,
  { db, actor }: DeliveryDeps,
): Promise<DeliveryZoneResult> {
  if (!isUuid(id)) return notFound("delivery zone");
  return saveDeliveryZone(id, input, db, actor);
}

/** A zone's or a point's fields as its record says them (its id is the subject). */
const recordOf = ({ id: _id, ...fields }: DeliveryZone | PickupPoint) => recordedFields({ ...fields });

/** Locks the row `id` of `table` for the rest of the transaction: its record's "before" holds. */
async function lockRow(tx: Prisma.TransactionClient, table: "delivery_zones" | "pickup_points", id: string) {
  const rows = await tx.$queryRaw<unknown[]>(
    Prisma.sql`SELECT 1 FROM ${Prisma.raw(table)} WHERE id = ${id}::uuid FOR UPDATE`,
  );
  return rows.length > 0;
}

/** A zone's row and its municipalities by name. */
async function zoneOf(tx: Prisma.TransactionClient, id: string): Promise<DeliveryZone> {
  const [row, listed] = await Promise.all([
    tx.deliveryZone.findUniqueOrThrow({ where: { id }, select: zoneFields }),
    tx.deliveryZoneMunicipality.findMany({ where: { zoneId: id }, select: { name: true }, orderBy: { name: "asc" } }),
  ]);
  return { ...row, municipalities: listed.map((municipality) => municipality.name) };
}

/** A new zone (`id` null) or an edit, its row, its municipalities and its record in one transaction. */
async function saveDeliveryZone(
  id: string | null,
  input: unknown,
  db: Database,
  actor: Actor,
): Promise<DeliveryZoneResult> {
  const parsed = deliveryZoneInputSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, DELIVERY_FIELDS);
  const { municipalities, ...fields } = parsed.data;
  const data = { ...fields, freeFromAoa: fields.freeFromAoa ?? null, estimatedDays: fields.estimatedDays ?? null };
  try {
    return await db.$transaction(async (tx) => {
      let before: DeliveryZone | undefined;
      if (id) {
        if (!(await lockRow(tx, "delivery_zones", id))) throw new Rollback(notFound("delivery zone"));
        before = await zoneOf(tx, id);
      }
      const row = id
        ? await tx.deliveryZone.update({ where: { id }, data, select: zoneFields })
        : await tx.deliveryZone.create({ data, select: zoneFields });
      if (municipalities !== undefined) {
        const served = await replaceMunicipalities(tx, row.id, municipalities);
        if (served) throw new Rollback<DeliveryRefusal>(municipalityServed(served));
      }
      const zone = await zoneOf(tx, row.id);
      await recordStaffEvent(tx, actor, {
        kind: before ? "delivery_zone.update" : "delivery_zone.create",
        subject: `delivery_zone:${zone.id}`,
        details: before
          ? { name: zone.name, changes: changedFields(recordOf(before), recordOf(zone)) }
          : recordOf(zone),
      });
      return { ok: true, done: before ? "saved" : "created", zone };
    });
  } catch (error) {
    return rolledBack<DeliveryRefusal>(error) ?? refusalOf(error, "delivery zone");
  }
}

const municipalityServed = (served: { municipality: string; zoneName: string }): DeliveryRefusal => ({
  ok: false,
  status: 409,
  code: "municipality_served",
  message: `${served.municipality} is already served by the delivery zone "${served.zoneName}": remove it there first`,
  field: "municipalities",
});

export async function createPickupPoint(input: unknown, { db, actor }: DeliveryDeps): Promise<PickupPointResult> {
  const parsed = pickupPointInputSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, DELIVERY_FIELDS);
  try {
    const pickupPoint = await db.$transaction(async (tx) => {
      const created = await tx.pickupPoint.create({ data: parsed.data, select: pointFields });
      await recordStaffEvent(tx, actor, {
        kind: "pickup_point.create",
        subject: `pickup_point:${created.id}`,
        details: recordOf(created),
      });
      return created;
    });
    return { ok: true, done: "created", pickupPoint };
  } catch (error) {
    return refusalOf(error, "pickup point");
  }
}

export async function updatePickupPoint(
  id: string,
  input: unknown,
  { db, actor }: DeliveryDeps,
): Promise<PickupPointResult> {
  if (!isUuid(id)) return notFound("pickup point");
  const parsed = pickupPointInputSchema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error, DELIVERY_FIELDS);
  try {
    const pickupPoint = await db.$transaction(async (tx) => {
      if (!(await lockRow(tx, "pickup_points", id))) throw new Rollback(notFound("pickup point"));
      const before = await tx.pickupPoint.findUniqueOrThrow({ where: { id }, select: pointFields });
      const updated = await tx.pickupPoint.update({ where: { id }, data: parsed.data, select: pointFields });
      await recordStaffEvent(tx, actor, {
        kind: "pickup_point.update",
        subject: `pickup_point:${id}`,
        details: { name: updated.name, changes: changedFields(recordOf(before), recordOf(updated)) },
      });
      return updated;
    });
    return { ok: true, done: "saved", pickupPoint };
  } catch (error) {
    return rolledBack<DeliveryRefusal>(error) ?? refusalOf(error, "pickup point");
  }
}

/** Every zone and pickup point, active or not, in order: the back office's lists. */
export async function listDeliveryMethods(
  db: Database,
): Promise<{ zones: DeliveryZone[]; pickupPoints: PickupPoint[] }> {
  const [zones, pickupPoints, municipalities] = await Promise.all([
    db.deliveryZone.findMany({ select: zoneFields, orderBy: DELIVERY_METHOD_ORDER }),
    db.pickupPoint.findMany({ select: pointFields, orderBy: DELIVERY_METHOD_ORDER }),
    municipalitiesByZone(db),
  ]);
  return { zones: zones.map((zone) => ({ ...zone, municipalities: municipalities.get(zone.id) ?? [] })), pickupPoints };
}

/** The back office's page of delivery methods. */
export const DELIVERY_PAGE = "/admin/delivery";
