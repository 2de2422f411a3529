import "server-only";
import { getEnv } from "../env";
import { consoleLogger } from "../log";
import { createPayClient, type PayClient } from "../pay/api/client";

/**
 * The shop's client for the payment service, configured from the environment and logging with the
 * app's logger, and the service's types the orders and the checkout use, so lib/pay stays free of
 * the shop's own modules.
 */

export { PayServiceError } from "../pay/api/errors";
export type { PayClient, CreatePaymentOrderInput } from "../pay/api/client";
export type { PaymentLookup, PaymentStatus } from "../pay/api/payment-status";

const globalForPay = globalThis as unknown as { payClient?: PayClient };

/**
 * The app's one client for the service. Kept on globalThis so the token cache
 * survives hot reloads in development instead of fetching a token per edit.
 */
export function payClient(): PayClient {
  if (!globalForPay.payClient) {
    const { pay } = getEnv();
    globalForPay.payClient = createPayClient(
      {
        apiBaseUrl: pay.apiBaseUrl,
        clientId: pay.clientId,
        clientSecret: pay.clientSecret,
        applicationUUID: pay.applicationUUID,
        lang: pay.lang,
      },
      { log: consoleLogger },
    );
  }
  return globalForPay.payClient;
}
