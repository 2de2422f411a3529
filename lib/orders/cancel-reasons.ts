import { PAY_ERROR_KINDS, PayServiceError } from "../pay/api/errors";

/**
 * Why the shop cancelled an order itself when createPaymentOrder failed (`orders.cancel_reason`):
 * `service_<kind>` for each way a call to the service fails (lib/pay/api/errors.ts), or
 * `internal_error` when the failure was ours. The back office lists these orders for a person
 * (lib/orders/attention-admin.ts): the order may exist at the service after all.
 */
export const CREATION_FAILURE_REASONS = [
  ...PAY_ERROR_KINDS.map((kind) => `service_${kind}` as const),
  "internal_error",
] as const;

export type CreationFailureReason = (typeof CREATION_FAILURE_REASONS)[number];

export const creationFailureReason = (error: unknown): CreationFailureReason =>
  error instanceof PayServiceError ? `service_${error.kind}` : "internal_error";

export const isCreationFailure = (reason: string | null): reason is CreationFailureReason =>
  CREATION_FAILURE_REASONS.some((failure) => failure === reason);
