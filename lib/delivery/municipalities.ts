import { z } from "zod";
import type { Database } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { hasNoNul, NO_NUL } from "../text-input";
import type { SqlRunner } from "../db/sql-runner";

/**
 * The municipalities a delivery zone serves: the owner's list per zone (one municipality in one
 * zone at most), and the zone that serves an address's municipality, from which endpoint A takes
 * the zone and its fee. A zone that lists none is "not yet restricted": it takes any address the
 * shopper picks it for, so a shop that upgrades keeps delivering until its owner lists them.
 */

/** As long as an address's municipality may be (lib/checkout/checkout-rules.ts), and how many a zone lists. */
export const MUNICIPALITY_LIMITS = { nameMax: 80, perZone: 100 } as const;

const municipality = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(MUNICIPALITY_LIMITS.nameMax, { error: `must have at most ${MUNICIPALITY_LIMITS.nameMax} characters` })
  .refine(hasNoNul, NO_NUL);

/**
 * A zone's municipalities: JSON's array of names, or the back-office textarea, one a line (its
 * blank lines dropped). Absent stays absent, so a JSON edit that leaves the list out keeps it; only
 * an explicit `[]` (or an empty textarea) lists none.
 */
export const municipalitiesInput = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean)
      : value,
  z
    .array(municipality, { error: "must be a list of municipalities, one a line" })
    .max(MUNICIPALITY_LIMITS.perZone, { error: `must have at most ${MUNICIPALITY_LIMITS.perZone} municipalities` })
    .optional(),
);

type Queryable = Pick<Database, "$queryRaw" | "$executeRaw">;

/** Another zone already serving a municipality the owner listed. */
export interface MunicipalityServed {
  municipality: string;
  zoneName: string;
}

/**
 * Replaces a zone's list with `names` (each kept once, the first spelling winning), inside the
 * caller's transaction. Names compare by delivery_municipality_key (accents, case and hyphens
 * aside), on which a unique index keeps one municipality in one zone: a name another zone serves
 * is inserted by neither, also against a concurrent edit, and the first such is answered, for the
 * caller to roll back.
 */
export async function replaceMunicipalities(
  tx: Queryable,
  zoneId: string,
  names: readonly string[],
): Promise<MunicipalityServed | null> {
  await tx.$executeRaw`DELETE FROM delivery_zone_municipalities WHERE zone_id = ${zoneId}::uuid`;
  if (names.length === 0) return null;
  const inserted = await tx.$queryRaw<{ name: string }[]>`
INSERT INTO delivery_zone_municipalities (zone_id, name)
SELECT ${zoneId}::uuid, name FROM (
  SELECT DISTINCT ON (delivery_municipality_key(name)) name, position
  FROM unnest(${names}::text[]) WITH ORDINALITY AS listed(name, position)
  ORDER BY delivery_municipality_key(name), position
) AS distinct_names
ON CONFLICT ((delivery_municipality_key(name))) DO NOTHING
RETURNING name`;
  const kept = new Set(inserted.map((row) => row.name));
  const refused = names.filter((name) => !kept.has(name));
  if (refused.length === 0) return null;
  const [served] = await tx.$queryRaw<{ municipality: string; zone_name: string }[]>`
SELECT listed.name AS municipality, z.name AS zone_name
FROM unnest(${refused}::text[]) WITH ORDINALITY AS listed(name, position)
JOIN delivery_zone_municipalities m ON delivery_municipality_key(m.name) = delivery_municipality_key(listed.name)
JOIN delivery_zones z ON z.id = m.zone_id
WHERE m.zone_id <> ${zoneId}::uuid
ORDER BY listed.position
LIMIT 1`;
  return served ? { municipality: served.municipality, zoneName: served.zone_name } : null;
}

/** Every zone's municipalities, by name (a shop lists a few dozen). */
export async function municipalitiesByZone(db: Database): Promise<Map<string, string[]>> {
  const rows = await db.deliveryZoneMunicipality.findMany({
    select: { zoneId: true, name: true },
    orderBy: { name: "asc" },
  });
  const byZone = new Map<string, string[]>();
  for (const row of rows) byZone.set(row.zoneId, [...(byZone.get(row.zoneId) ?? []), row.name]);
  return byZone;
}

/** The active zone serving a municipality, with the municipality as the zone lists it; null when none does. */
export interface ServingZone {
  id: string;
  name: string;
  feeAoa: number;
  freeFromAoa: number | null;
  estimatedDays: number | null;
  municipality: string;
}

export async function servingZone(tx: SqlRunner, municipality: string): Promise<ServingZone | null> {
  const [zone] = await tx.$queryRaw<ServingZone[]>(Prisma.sql`
SELECT z.id, z.name, z.fee_aoa AS "feeAoa", z.free_from_aoa AS "freeFromAoa",
       z.estimated_days AS "estimatedDays", m.name AS municipality
FROM delivery_zone_municipalities m
JOIN delivery_zones z ON z.id = m.zone_id
WHERE delivery_municipality_key(m.name) = delivery_municipality_key(${municipality}) AND z.active`);
  return zone ?? null;
}
