import { z } from "zod";

/**
 * zod for the schemas the browser loads (the checkout form checks the customer with them): every
 * such module imports `z` from here, so this runs before any of their schemas is built.
 */

// The pages' Content-Security-Policy has no 'unsafe-eval'. Building an object schema, zod tries
// `new Function("")` once to decide whether it may compile its parsers, and the browser reports
// that attempt as a policy violation; interpreted parsing is what it falls back to anyway.
z.config({ jitless: true });

export { z };
