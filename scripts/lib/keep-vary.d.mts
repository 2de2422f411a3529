// Types for keep-vary.mjs (plain JavaScript, run by plain `node`), for the TypeScript tests.
import type { ServerResponse } from "node:http";
export declare function mergeVary(earlier: unknown, later: unknown): string;
export declare function keepVary<T extends ServerResponse>(response: T): T;
