import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A port that was free a moment ago on 127.0.0.1, for servers that must be told their port
 * up front (`next start`, PgBouncer, a throw-away PostgreSQL cluster). Another process could take
 * it in between; that is rare enough, and the server then fails loudly rather than measuring or
 * testing the wrong thing.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
