// Types for forwarded-for.mjs (plain JavaScript, run by plain `node`), for the TypeScript tests.
export declare const UNKNOWN_PEER: string;
export declare function appendForwardedFor(header: string | string[] | undefined, peer: string | undefined): string;
export declare function untrustedProxyWarning(
  header: string | string[] | undefined,
  trustProxy: string | undefined,
): string | null;
