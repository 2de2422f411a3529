/**
 * Reads what the service says about an order: the answer of `paymentByExternalTransaction`,
 * whose fields the contract does not show (2.6), and the webhook body, which fixes only
 * `data.paymentStatus` (2.5). We accept every plausible placement and keep only what we rely on;
 * docs/contract-decisions.md lists the forms and tests/unit/pay/payment-status.test.ts pins them.
 */
export const PAYMENT_STATUSES = ["PEN", "CON", "CAN"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export type PaymentLookup =
  | { found: false }
  | {
      found: true;
      /** null when the answer carried no recognisable status: callers must change nothing. */
      status: PaymentStatus | null;
      externalTransactionId?: string;
      referenceNumber?: string;
      paymentReference?: string;
      entityNumber?: string;
      /** `amount`, when the answer carries it as a number or numeric string (any other form: absent). */
      amountAoa?: number;
    };

type Json = Record<string, unknown>;

/** Ours are 42 characters and the service's references a few digits; nothing genuine comes near. */
export const MAX_IDENTIFIER_LENGTH = 200;

/**
 * Whether an identifier from the service can be stored and looked up: PostgreSQL text cannot hold
 * NUL and a btree index entry is limited to ~2.7 kB, so such a value would fail every statement
 * (and a webhook carrying it would be answered 503 and redelivered forever).
 */
export const isUsableIdentifier = (value: string) => value.length <= MAX_IDENTIFIER_LENGTH && !/\p{Cc}/u.test(value);

const IDENTIFIER_FIELDS = ["externalTransactionId", "referenceNumber", "paymentReference", "entityNumber"] as const;

/** The first identifier of `lookup` that {@link isUsableIdentifier} refuses, if any. */
export function unusableIdentifier(lookup: PaymentLookup): (typeof IDENTIFIER_FIELDS)[number] | undefined {
  if (!lookup.found) return undefined;
  return IDENTIFIER_FIELDS.find((field) => lookup[field] !== undefined && !isUsableIdentifier(lookup[field]));
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The objects that may carry the order: `data`, the first element of a `data` array, or the body itself. */
function candidates(body: Json): Json[] {
  const { data } = body;
  const nested = isObject(data) ? [data] : Array.isArray(data) && isObject(data[0]) ? [data[0]] : [];
  return [...nested, body];
}

function firstString(objects: Json[], read: (o: Json) => unknown): string | undefined {
  for (const object of objects) {
    const value = read(object);
    if (typeof value === "string" && value.trim() !== "") return value.trim();
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

export function parsePaymentStatus(value: unknown): PaymentStatus | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return (PAYMENT_STATUSES as readonly string[]).includes(code) ? (code as PaymentStatus) : null;
}

export function readPaymentLookup(body: unknown): PaymentLookup {
  if (!isObject(body)) return { found: false };
  if (body.data === null || (Array.isArray(body.data) && body.data.length === 0)) return { found: false };
  const objects = candidates(body);
  const entity = (o: Json) => (isObject(o.entity) ? o.entity.number : o.entity);
  return {
    found: true,
    status: parsePaymentStatus(firstString(objects, (o) => o.paymentStatus ?? o.status)),
    externalTransactionId: firstString(objects, (o) => o.externalTransactionId),
    referenceNumber: firstString(objects, (o) => o.referenceNumber),
    paymentReference: firstString(objects, (o) => o.paymentReference),
    entityNumber: firstString(objects, (o) => o.entityNumber ?? entity(o)),
    ...amountOf(objects),
  };
}

/** `amount` as a finite number, when present; `{}` otherwise, so the field is absent rather than undefined. */
function amountOf(objects: Json[]): { amountAoa?: number } {
  const value = firstString(objects, (o) => o.amount);
  if (value === undefined || !/^-?\d+(\.\d+)?$/.test(value)) return {};
  return { amountAoa: Number(value) };
}
