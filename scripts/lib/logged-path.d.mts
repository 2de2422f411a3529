// Types for logged-path.mjs (plain JavaScript, run by plain `node`), for the TypeScript tests.
export declare function loggedPath(url: string | undefined): string;
