/**
 * What an edit changed, for its record in staff_events (./staff-events.ts): each field whose value
 * differs, with the value before and after. Pure; dates are compared and written as ISO instants,
 * lists and objects by their JSON.
 */

export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** A value as the record writes it: a Date as its instant, anything else as it is. */
const recorded = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

/**
 * The fields of `after` whose value is not the one in `before`, each with both values; a field
 * `after` leaves undefined was not part of the edit, and is not compared.
 */
export function changedFields(before: object, after: object): FieldChanges {
  const changes: FieldChanges = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const from = recorded((before as Record<string, unknown>)[field] ?? null);
    const to = recorded(value ?? null);
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}

/** A record's fields with every Date as its instant, for a creation's record. */
export const recordedFields = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, recorded(value)]));
