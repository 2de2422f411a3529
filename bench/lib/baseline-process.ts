/**
 * The baseline server's process (started by baseline-server.ts): a bare node:http server and
 * a pg pool, answering each scenario's route with the scenario's own baseline handler. It runs
 * apart from the load generator so the two do not share an event loop, as the app does not either.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { selectScenarios } from "../scenarios/index";
import { isStaticFileBaseline, type BaselineHandler, type ShopSettings } from "./scenario";

const { BASELINE_DATABASE_URL, BASELINE_POOL_MAX, BASELINE_SHOP, BENCH_SCENARIOS } = process.env;
const send = process.send?.bind(process);
if (!BASELINE_DATABASE_URL || !BASELINE_SHOP || !send)
  throw new Error("baseline-process.ts is started by bench/lib/baseline-server.ts, not on its own");

const database = new pg.Pool({ connectionString: BASELINE_DATABASE_URL, max: Number(BASELINE_POOL_MAX) || 10 });
// An idle connection the server ended (the scratch database dropped at the end) must not crash the process.
database.on("error", () => {});
const shop = JSON.parse(BASELINE_SHOP) as ShopSettings;
const handlers = new Map<string, BaselineHandler>();
for (const { baseline } of selectScenarios(BENCH_SCENARIOS)) {
  // A static-file baseline is the app's own server; this one has nothing to serve for it.
  if (baseline === null || isStaticFileBaseline(baseline)) continue;
  const route = `${baseline.method} ${baseline.path}`;
  // Scenarios on the same route share one handler (bench/lib/scenario.ts).
  if (!handlers.has(route)) handlers.set(route, baseline.handler({ database, shop }));
}

const server = createServer((request, response) => {
  // By path: a query string is the handler's to read (`search`).
  const handler = handlers.get(`${request.method} ${request.url?.split("?")[0]}`);
  if (!handler) {
    response.writeHead(404).end();
    return;
  }
  handler(request, response).catch((error: unknown) => {
    console.error(
      `[baseline] ${request.method} ${request.url}: ${error instanceof Error ? error.message : String(error)}`,
    );
    if (!response.headersSent) response.writeHead(500);
    response.end();
  });
});

server.listen(0, "127.0.0.1", () => send({ port: (server.address() as AddressInfo).port }));

// The parent going away (normally or not) ends this process: it must never outlive a run.
process.on("disconnect", () => {
  server.close();
  server.closeAllConnections();
  void database.end().finally(() => process.exit(0));
});
