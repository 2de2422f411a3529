import { test as base, expect, type Page, type Request } from "@playwright/test";
import { controlClient, type ControlClient } from "pay-sandbox/client";
import { existsSync } from "node:fs";
import { E2E_ENVIRONMENT_FILE, readE2eServerEnvironment } from "../../harness/server-environment";

/**
 * Playwright's `test` with what every e2e test of the shop gets:
 * - `requestedUrls`, automatic: every request any page of the test makes, checked after the
 *   test to have stayed on this machine, because the shop must work offline (the service is
 *   the local sandbox, images and scripts are served by the shop itself);
 * - `sandbox`: the typed control client (pay-sandbox/client) of the local sandbox the e2e
 *   server started, with its token from test-results/e2e-server.json. Against a real
 *   service (E2E_PAY_SERVICE=real) there is none, and a test that needs it is skipped: every
 *   test that drives the hosted checkout or reads what the service received asks for it.
 * - `settledPages`, automatic: a test ends with every page of its context on a document, not
 *   between two (see `unsettledPage`).
 */
type SandboxFixture = ControlClient & {
  /** The run's random PAY_CLIENT_SECRET and PAY_WEBHOOK_SECRET (the sandbox does not serve them). */
  credentials(): Promise<{ clientSecret: string; webhookSecret: string }>;
};

export const test = base.extend<{
  requestedUrls: string[];
  cspViolations: string[];
  settledPages: void;
  sandbox: SandboxFixture;
}>({
  requestedUrls: [
    async ({ context }, use) => {
      const urls: string[] = [];
      context.on("request", (request) => urls.push(request.url()));
      await use(urls);
      const serviceOrigin = remoteServiceOrigin();
      expect(
        urls.filter((url) => !staysOnThisMachine(url) && new URL(url).origin !== serviceOrigin),
        "requests that left this machine",
      ).toEqual([]);
    },
    { auto: true },
  ],
  // Every page's Content-Security-Policy (lib/http/csp.ts) must let the shop and the SDK
  // work: any violation a page reports, in any test, fails it. Chromium logs some on the console
  // and only reports others as DevTools issues (an eval attempt a script catches, say), so every
  // page also says each `securitypolicyviolation` event on the console itself.
  cspViolations: [
    async ({ context }, use) => {
      const violations: string[] = [];
      await context.addInitScript(() =>
        document.addEventListener("securitypolicyviolation", (event) =>
          console.error(
            `Content Security Policy: ${event.effectiveDirective} refused ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`,
          ),
        ),
      );
      context.on("console", (message) => {
        if (message.text().includes("Content Security Policy")) violations.push(message.text());
      });
      await use(violations);
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
  // Chromium can leave Target.disposeBrowserContext unanswered when the context closes while a
  // page of it is changing documents: the test then fails after its last assertion passed, with
  // "Tearing down "context" exceeded the test timeout". A page that leaves by itself (a streamed
  // redirect) or is still fetching its next document when the test ends fails the test here,
  // naming it, once that page has arrived (so the context closes).
  settledPages: [
    async ({ context }, use) => {
      const documentsInFlight = new Map<Page, Set<Request>>();
      const inFlight = (page: Page) => documentsInFlight.get(page) ?? new Set<Request>();
      const pageOf = (request: Request) => {
        // A service worker's own requests have no frame; a frame's document is not the page's.
        if (request.serviceWorker() || !request.isNavigationRequest()) return undefined;
        try {
          const frame = request.frame();
          return frame.parentFrame() ? undefined : frame.page();
        } catch {
          // A popup's first document is asked for before its page exists: that page is not the test's.
          return undefined;
        }
      };
      context.on("request", (request) => {
        const page = pageOf(request);
        if (page) documentsInFlight.set(page, inFlight(page).add(request));
      });
      const arrived = (request: Request) => {
        const page = pageOf(request);
        if (page) inFlight(page).delete(request);
      };
      context.on("requestfinished", arrived);
      context.on("requestfailed", arrived);
      await use();
      const unsettled: string[] = [];
      for (const page of context.pages()) {
        const reason = await unsettledPage(page, inFlight(page));
        if (!reason) continue;
        unsettled.push(reason);
        await page.waitForEvent("load", { timeout: 10_000 }).catch(() => {});
      }
      expect(
        unsettled,
        "pages still on their way when the test ended: wait for where they go (expect(page).toHaveURL(…))",
      ).toEqual([]);
    },
    { auto: true },
  ],
  // Playwright reads the fixtures a fixture needs from its first parameter, so it must be a pattern.
  sandbox: async ({}, use) => {
    const { sandboxUrl, sandboxToken, paySecrets } = readE2eServerEnvironment();
    test.skip(
      sandboxUrl === null || sandboxToken === null || paySecrets === null,
      "needs the local sandbox's control API and hosted checkout",
    );
    await use({
      ...controlClient({ url: sandboxUrl!, token: sandboxToken! }),
      credentials: async () => paySecrets!,
    });
  },
});

export { expect };

/**
 * Against a real service (E2E_PAY_SERVICE=real) its SDK is the one expected remote origin. A run
 * of the "dev" project alone (CI's PGlite pass) has no production server, hence no environment
 * file: its shop always uses the local sandbox.
 */
function remoteServiceOrigin(): string | undefined {
  if (!existsSync(E2E_ENVIRONMENT_FILE)) return undefined;
  const { sandboxUrl, sdkUrl } = readE2eServerEnvironment();
  return sandboxUrl === null ? new URL(sdkUrl).origin : undefined;
}

/**
 * Why `page` is not settled on a document, if it is not: a document request in flight, a
 * document that sends the browser on by itself (`<meta http-equiv="refresh">`, as Next writes
 * for a redirect once a page has started streaming), or a document replaced while it was read.
 */
async function unsettledPage(page: Page, documentsInFlight: Set<Request>): Promise<string | undefined> {
  const [request] = documentsInFlight;
  if (request) return `${page.url()}: still loading ${request.url()}`;
  try {
    const refresh = await page.evaluate(
      () => document.querySelector('meta[http-equiv="refresh" i]')?.getAttribute("content") ?? null,
    );
    return refresh === null ? undefined : `${page.url()}: leaves by itself (refresh "${refresh}")`;
  } catch (error) {
    // Closed meanwhile (a popup that closes itself) is settled; a destroyed context is a new document.
    if (page.isClosed() || !String(error).includes("Execution context was destroyed")) return undefined;
    return `${page.url()}: its document was being replaced`;
  }
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** Schemes that name content the page already has, not a place to fetch it from. */
const IN_PAGE_SCHEMES = new Set(["data:", "blob:", "about:"]);

function staysOnThisMachine(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return IN_PAGE_SCHEMES.has(protocol) || LOOPBACK_HOSTS.has(hostname);
}

/**
 * Scrolls every image into view (next/image loads lazily) and waits until each has decoded
 * with a size, so assertions and screenshots see the images, not their placeholders.
 */
export async function loadAllImages(page: Page): Promise<void> {
  for (const image of await page.getByRole("main").getByRole("img").all()) {
    // A picture drawn in the page (the dashboard's charts: SVG named as one image) has nothing to load.
    if ((await image.evaluate((element) => element.tagName)) !== "IMG") continue;
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0), {
        message: `image ${await image.getAttribute("src")} loads`,
      })
      .toBe(true);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}
