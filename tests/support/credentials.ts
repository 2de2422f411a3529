import { randomBytes, randomUUID } from "node:crypto";

export interface PayCredentials {
  publishableKey: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
}

/** Fresh random test credentials, shaped like the service's (contract 2.1). */
export function testCredentials(): PayCredentials {
  return {
    publishableKey: `pk_test_${randomUUID()}`,
    clientId: `client_${randomBytes(8).toString("hex")}`,
    clientSecret: randomBytes(24).toString("base64url"),
    webhookSecret: randomBytes(32).toString("hex"),
  };
}
