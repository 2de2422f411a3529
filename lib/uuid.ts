/**
 * A UUID in its text form (any version, either case), as PostgreSQL's `uuid` type accepts it:
 * checked before a `::uuid` cast or a lookup, so a malformed id is "not found", never a database
 * error.
 */
export const isUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
