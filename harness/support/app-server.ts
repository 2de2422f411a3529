import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { NextRequest } from "next/server";

/**
 * The app's API route handlers behind a real HTTP listener, without Next's server around them,
 * so the local sandbox can deliver its webhooks to them over HTTP the way the service would.
 * after() tasks run once the handler has answered (harness/support/next-after.ts).
 */

// `any` params: each route declares its own; the pattern's named groups supply them.
type Handler = (request: NextRequest, context: { params: Promise<any> }) => Promise<Response>;

const routes: { method: string; pattern: RegExp; load: () => Promise<Handler> }[] = [
  {
    method: "POST",
    pattern: /^\/api\/pay\/webhook$/,
    load: async () => (await import("@/app/api/pay/webhook/route")).POST as Handler,
  },
  {
    method: "POST",
    pattern: /^\/api\/pay\/create-order$/,
    load: async () => (await import("@/app/api/pay/create-order/route")).POST as Handler,
  },
  {
    method: "GET",
    pattern: /^\/api\/pay\/order\/(?<externalTransactionId>[^/]+)\/status$/,
    load: async () => (await import("@/app/api/pay/order/[externalTransactionId]/status/route")).GET as Handler,
  },
];

export interface AppServer {
  url: string;
  /** Every request the server answered, in order: what a test asserts the service received back. */
  answered: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

export async function startAppServer(): Promise<AppServer> {
  const answered: AppServer["answered"] = [];
  const server = createServer((incoming, outgoing) => {
    void serve(incoming, outgoing, answered).catch((error: unknown) => {
      outgoing.statusCode = 500;
      outgoing.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(incoming: IncomingMessage, outgoing: ServerResponse, answered: AppServer["answered"]) {
  const url = new URL(incoming.url ?? "/", "http://localhost:3000");
  const route = routes.find(
    (candidate) => candidate.method === incoming.method && candidate.pattern.test(url.pathname),
  );
  if (!route) {
    outgoing.writeHead(404).end();
    return;
  }
  const params = route.pattern.exec(url.pathname)?.groups ?? {};
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  const request = new NextRequest(url, {
    method: incoming.method,
    headers: Object.entries(incoming.headers).flatMap(([name, value]) =>
      value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => [name, one] as [string, string]),
    ),
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
  const response = await (await route.load())(request, { params: Promise.resolve(params) });
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(body);
  answered.push({ method: incoming.method ?? "GET", path: url.pathname, status: response.status });
}
