/**
 * Why a call to the service failed, in terms a route can answer with:
 * - `unavailable`: network error, timeout, 408/429/5xx after retries → 503, try again later;
 * - `rejected`: the service refused our request (4xx) → 502, a bug or misconfiguration on our side;
 * - `invalid_response`: 2xx without the fields the contract promises → 502.
 */
export const PAY_ERROR_KINDS = ["unavailable", "rejected", "invalid_response"] as const;
export type PayErrorKind = (typeof PAY_ERROR_KINDS)[number];

export class PayServiceError extends Error {
  readonly kind: PayErrorKind;
  readonly operation: string;
  /** HTTP status the service answered with, when it answered. */
  readonly status: number | undefined;
  readonly requestId: string;

  constructor(
    kind: PayErrorKind,
    message: string,
    details: { operation: string; requestId: string; status?: number; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.name = "PayServiceError";
    this.kind = kind;
    this.operation = details.operation;
    this.status = details.status;
    this.requestId = details.requestId;
  }

  /** The status our own endpoint should answer with. */
  get httpStatus(): 502 | 503 {
    return this.kind === "unavailable" ? 503 : 502;
  }
}
