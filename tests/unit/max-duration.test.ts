import { describe, expect, it } from "vitest";
import { routeFiles } from "../../harness/support/routes";

// A serverless function is cut off at its maxDuration, and the platform's default is short.
// Every route or page that may call the service, run jobs or sweep declares how long it may
// take, within what every Vercel plan allows (60 s); the work it starts is bounded to fit
// (lib/jobs/runner.ts endOfInvocation, the sweep's deadline). tests/deploy/vercel-build.test.ts
// checks that the build carries each value.

/** Imports that mean "this route may call the service or run jobs" (directly, or through a cart action). */
const LONG_RUNNING_IMPORTS = [
  "@/lib/orders/pay-client",
  "@/lib/jobs/runner",
  "@/lib/orders/reconcile",
  "@/lib/orders/holds",
  "@/lib/orders/status",
  "@/lib/checkout/create-order",
  "@/app/actions/cart",
  // catalogChanged is called beside the runs of jobs that put stock back.
  "@/lib/catalog/cached-pages",
  "@/components/cart/add-to-cart-form",
  // The catalogue's cards hold the add-to-cart form, whose action runs in the page's function.
  "@/components/catalog/product-card",
];
const HOBBY_LIMIT_SECONDS = 60;

describe("maxDuration", () => {
  it("is declared by every route or page that may call the service or run jobs, within 60 s", async () => {
    const routes = await routeFiles();
    const longRunning = routes.filter((route) =>
      LONG_RUNNING_IMPORTS.some((module) => route.source.includes(`from "${module}"`)),
    );
    expect(longRunning.map((route) => route.file)).toEqual(
      expect.arrayContaining([
        "app/api/pay/create-order/route.ts",
        "app/api/pay/webhook/route.ts",
        "app/api/cron/jobs/route.ts",
        "app/api/cron/reconcile/route.ts",
      ]),
    );
    for (const route of longRunning) expect(route.maxDuration, route.file).toBeDefined();
    for (const route of routes) {
      if (route.maxDuration !== undefined)
        expect(route.maxDuration, route.file).toBeLessThanOrEqual(HOBBY_LIMIT_SECONDS);
    }
  });
});
