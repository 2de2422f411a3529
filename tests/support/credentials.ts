import type { SandboxCredentials } from "../../sandbox/server";

export type PayCredentials = SandboxCredentials;

/** Fresh random test credentials, shaped like the service's (contract 2.1). */
export { randomCredentials as testCredentials } from "../../sandbox/testing";
