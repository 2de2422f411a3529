import { devices, type Browser, type CDPSession, type Page, type Request } from "@playwright/test";
import { KB, type PageBudget } from "./data-budget";

/**
 * What a first visit to a page costs a phone, read from Chromium's own network events (the
 * DevTools protocol): every request the page makes, and the bytes each took over the wire,
 * `encodedDataLength` when it finished: the response's headers and its compressed body, as the
 * phone's data plan counts them. Both are kept apart too, per response, for the report. A fresh
 * browser context each time: empty cache, no cookies, no service worker yet (one the page
 * installs is measured too, with its own requests).
 */

/** A phone: Chromium with a 390 × 844 screen, touch and a phone's user agent. */
export const PHONE = {
  ...devices["Pixel 7"],
  viewport: { width: 390, height: 844 },
  screen: { width: 390, height: 844 },
};

type Kind = "document" | "script" | "stylesheet" | "image" | "prefetch" | "fetch" | "other";

interface Entry {
  url: string;
  kind: Kind;
  /** The response's status; 0 when none came (failed, or answered by no one). */
  status: number;
  /** Everything received for it over the wire: headers and compressed body. */
  bytes: number;
  /** Of which the response's headers (its status line included). */
  headerBytes: number;
  done: boolean;
}

/** One response, as the report lists it. */
export interface ResponseWeight {
  url: string;
  kind: Kind;
  status: number;
  /** Over the wire: `headerBytes` + the compressed body. */
  bytes: number;
  headerBytes: number;
}

export interface PageWeight {
  path: string;
  /** Over the wire: the responses' headers and compressed bodies. */
  totalBytes: number;
  /** Of which headers. */
  headerBytes: number;
  /** JavaScript over the wire. */
  scriptBytes: number;
  requests: number;
  /** Bytes and requests by kind; `prefetch` is Next's router prefetches (pages not opened). */
  byKind: Record<Kind, { bytes: number; requests: number }>;
  /** Each request, for the report. */
  entries: ResponseWeight[];
}

function kindOf(type: string | undefined, headers: Record<string, string>): Kind {
  const names = Object.keys(headers).map((name) => name.toLowerCase());
  if (names.some((name) => name === "next-router-prefetch" || name === "next-router-segment-prefetch"))
    return "prefetch";
  switch (type) {
    case "Document":
      return "document";
    case "Script":
      return "script";
    case "Stylesheet":
      return "stylesheet";
    case "Image":
      return "image";
    case "Fetch":
    case "XHR":
      return "fetch";
    default:
      return "other";
  }
}

/** Follows one page's requests through the DevTools protocol. */
async function recordNetwork(session: CDPSession) {
  const entries = new Map<string, Entry>();
  let lastActivity = Date.now();
  await session.send("Network.enable");
  session.on("Network.requestWillBeSent", (event) => {
    if (!/^https?:/.test(event.request.url)) return;
    lastActivity = Date.now();
    // A redirect reuses the id: the hop before it was paid for too, and counts as a request.
    const previous = entries.get(event.requestId);
    if (previous && event.redirectResponse) {
      // Its headers are all Chromium reports of it (a redirect's body is a line or none).
      const hop = event.redirectResponse.encodedDataLength;
      entries.set(`${event.requestId}:${entries.size}`, {
        ...previous,
        status: event.redirectResponse.status,
        bytes: hop,
        headerBytes: hop,
        done: true,
      });
    }
    entries.set(event.requestId, {
      url: event.request.url,
      kind: kindOf(event.type, event.request.headers),
      status: 0,
      bytes: 0,
      headerBytes: 0,
      done: false,
    });
  });
  // What had arrived when the response started: its headers.
  session.on("Network.responseReceived", (event) => {
    const entry = entries.get(event.requestId);
    if (entry) Object.assign(entry, { status: event.response.status, headerBytes: event.response.encodedDataLength });
  });
  // Answered from the memory cache (the same image twice on a page): no request went out.
  session.on("Network.requestServedFromCache", (event) => {
    entries.delete(event.requestId);
  });
  session.on("Network.loadingFinished", (event) => {
    lastActivity = Date.now();
    const entry = entries.get(event.requestId);
    // The whole response as received: headers and body (0 for one a cache or a worker answered).
    if (entry) Object.assign(entry, { bytes: Math.max(event.encodedDataLength, entry.headerBytes), done: true });
  });
  session.on("Network.loadingFailed", (event) => {
    lastActivity = Date.now();
    const entry = entries.get(event.requestId);
    if (entry) entry.done = true;
  });
  return {
    entries,
    /** Until nothing has been in flight, nor started, for `quietMs`. */
    async quiet(quietMs = 1500, timeoutMs = 30_000) {
      const start = Date.now();
      while (Date.now() - start < timeoutMs) {
        const busy = [...entries.values()].some((entry) => !entry.done);
        if (!busy && Date.now() - lastActivity >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}

/** Scrolls to the bottom a screen at a time, as a shopper reading the page does, so lazy images load. */
async function scrollToBottom(page: Page) {
  for (let i = 0; i < 100; i++) {
    const atBottom = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight * 0.8);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
    });
    await page.waitForTimeout(150);
    if (atBottom) return;
  }
}

/**
 * Visits `path` as a phone on its first visit, scrolls to the bottom and waits until the network
 * is quiet. `saveData`: the browser says so, in the `Save-Data: on` header of every request and in
 * `navigator.connection.saveData`, as Chromium does with its data saver on.
 */
export async function measureFirstVisit(
  browser: Browser,
  baseURL: string,
  path: string,
  {
    saveData = false,
    inspect,
  }: {
    saveData?: boolean;
    /** Looks at the page once it is scrolled and quiet, before its context closes. */
    inspect?: (page: Page) => Promise<void>;
  } = {},
): Promise<PageWeight> {
  const context = await browser.newContext({
    ...PHONE,
    baseURL,
    locale: "pt-AO",
    ...(saveData ? { extraHTTPHeaders: { "Save-Data": "on" } } : {}),
  });
  try {
    if (saveData)
      await context.addInitScript(() => {
        const connection = (navigator as Navigator & { connection?: object }).connection;
        if (connection) Object.defineProperty(connection, "saveData", { get: () => true });
      });
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    const network = await recordNetwork(session);
    // A service worker's own requests (its precache) come from another target: counted too.
    const workerRequests: { url: string; status: Promise<number>; sizes: ReturnType<Request["sizes"]> }[] = [];
    context.on("requestfinished", (request) => {
      if (request.serviceWorker())
        workerRequests.push({
          url: request.url(),
          status: request.response().then((response) => response?.status() ?? 0),
          sizes: request.sizes(),
        });
    });
    await page.goto(path, { waitUntil: "load" });
    await network.quiet();
    await scrollToBottom(page);
    await network.quiet();
    await inspect?.(page);

    const entries: ResponseWeight[] = [
      ...[...network.entries.values()].map(({ url, kind, status, bytes, headerBytes }) => ({
        url,
        kind,
        status,
        bytes,
        headerBytes,
      })),
      ...(await Promise.all(
        workerRequests.map(async ({ url, status, sizes }) => {
          const { responseBodySize, responseHeadersSize } = await sizes;
          return {
            url,
            kind: "other" as Kind,
            status: await status,
            bytes: responseHeadersSize + responseBodySize,
            headerBytes: responseHeadersSize,
          };
        }),
      )),
    ];
    const byKind = Object.fromEntries(
      (["document", "script", "stylesheet", "image", "prefetch", "fetch", "other"] as const).map((kind) => {
        const of = entries.filter((entry) => entry.kind === kind);
        return [kind, { bytes: of.reduce((sum, entry) => sum + entry.bytes, 0), requests: of.length }];
      }),
    ) as PageWeight["byKind"];
    return {
      path,
      totalBytes: entries.reduce((sum, entry) => sum + entry.bytes, 0),
      headerBytes: entries.reduce((sum, entry) => sum + entry.headerBytes, 0),
      scriptBytes: byKind.script.bytes,
      requests: entries.length,
      byKind,
      entries,
    };
  } finally {
    await context.close();
  }
}

const kB = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

/** One line of figures for the test's output, with the budget beside each. */
export function describeWeight(name: string, weight: PageWeight, budget?: PageBudget): string {
  const of = (value: string, limit?: number) => (limit === undefined ? value : `${value} / ${kB(limit)}`);
  const kinds = Object.entries(weight.byKind)
    .filter(([, { requests }]) => requests > 0)
    .map(([kind, { bytes, requests }]) => `${kind} ${kB(bytes)} (${requests})`)
    .join(", ");
  return (
    `${name.padEnd(20)} ${weight.path}: over the wire ${of(kB(weight.totalBytes), budget?.totalBytes)} ` +
    `(of which headers ${kB(weight.headerBytes)}), ` +
    `JavaScript ${of(kB(weight.scriptBytes), budget?.scriptBytes)}, ` +
    `requests ${weight.requests}${budget ? ` / ${budget.requests}` : ""} — ${kinds}`
  );
}

/** Each response of a visit, one line each, heaviest first: where a page's bytes go. */
export function describeResponses(weight: PageWeight): string[] {
  const origin = (url: string) => new URL(url).origin;
  return [...weight.entries]
    .sort((a, b) => b.bytes - a.bytes)
    .map(
      (entry) =>
        `${String(entry.status).padStart(3)} ${String(entry.headerBytes).padStart(6)} ` +
        `${String(entry.bytes - entry.headerBytes).padStart(7)} ${entry.url.slice(origin(entry.url).length)}`,
    );
}
