// Types for head-with-body.mjs (plain JavaScript, run by plain `node`), for the TypeScript tests.
import type { ServerResponse } from "node:http";
export declare function sendHeadWithBody<T extends ServerResponse>(response: T): T;
