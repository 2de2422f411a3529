import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";

/**
 * One thing to benchmark: requests the app answers, and the same work done by a bare
 * node:http server (the baseline) in the same run, so the figures are ratios against what
 * this machine and this database can do at all, not absolute numbers from somewhere else.
 * Add a scenario by writing one of these under bench/scenarios/ and listing it in
 * bench/scenarios/index.ts.
 *
 * Every load run (the answer check, the warm-up, each measured mode) against each target is
 * prepared on its own: `prepare` gives it its own rows in the database (fresh pending orders
 * for the app and others for the baseline, so both do real transitions) and returns where its
 * requests come from and how to check, afterwards, what they did to the database.
 */
export interface Scenario {
  /** Short and unique: the table's first column, and how BENCH_SCENARIOS selects it. */
  name: string;
  /** What one request does, for the output. */
  summary: string;
  /**
   * The same work without the app's stack, on the bare server; or, for a page, the app's own
   * server sending a static file (what Next answers at best); null when there is none (the
   * table then shows no ratios).
   */
  baseline: Baseline | StaticFileBaseline | null;
  /**
   * Rows the scenario needs for the whole run (the 10 000 products of `search`), written once
   * before `next build`, so that the pages the build renders ahead show them. Scenarios that
   * share data must write it once between them (catalog-data.ts).
   */
  setup?(database: pg.Pool): Promise<void>;
  /**
   * Requests per second of its fixed-rate run when BENCH_RATE is not set: the rate its goal is
   * stated at (`search`: p99 under 50 ms at 100 req/s). Unset: BENCH_RATE's default, 200.
   */
  fixedRate?: number;
  /** Data and requests for one run against one target. */
  prepare(run: RunSetup): Promise<PreparedRun>;
  /**
   * Throws when the answers to the first request of each target are not equivalent (or not
   * right), so a fast wrong answer is never measured. Called once, before any load.
   */
  checkAnswers(answers: { app: Answer; baseline?: Answer }): void;
}

export type Target = "baseline" | "app";

export interface Baseline {
  method: "GET" | "POST";
  path: string;
  /**
   * The baseline's handler for method + path. The baseline serves each route once, so
   * scenarios on the same route share one handler (the webhook scenarios do).
   */
  handler(context: BaselineContext): BaselineHandler;
}

/**
 * The baseline is the app's own server (the same Next process) answering `GET path`, a file of
 * public/: no route, no render, no database. A page's ratio against it says how close the page
 * comes to what the server does at best. The scenario's prepare gets target "baseline" and
 * sends `path`.
 */
export interface StaticFileBaseline {
  staticFile: string;
  /**
   * The file's content: a file of the build (relative to the repository) that the runner copies
   * to public/ at `staticFile` before the server starts, and removes when the bench ends. A page's
   * own prerendered HTML, so the baseline sends the same bytes and only the serving differs.
   * Without it, `staticFile` must already be in public/.
   */
  copyOf?: string;
  /**
   * The page `copyOf` is the prerendered HTML of. A build that did not render it ahead (one
   * reused from the browser tests, built without the bench catalogue) has no such file: the runner
   * then visits this address first instead, as for `visitFirst`.
   */
  page?: string;
  /**
   * Instead of `copyOf`, a page `next build` does not render ahead but the server caches on its
   * first visit (a category's page 2): the runner starts a first server, visits this address (as
   * a browser does: HTML, no cookie) until the answer comes from the cache, keeps that answer's
   * bytes as `staticFile`, and stops the server before it starts the one that is measured.
   */
  visitFirst?: string;
}

export const isStaticFileBaseline = (baseline: Scenario["baseline"]): baseline is StaticFileBaseline =>
  baseline !== null && "staticFile" in baseline;

export interface BaselineContext {
  /** A pool of as many connections as the app's. */
  database: pg.Pool;
  shop: ShopSettings;
}

export type BaselineHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** What the app is configured with, for scenarios and the baseline (both run on loopback only). */
export interface ShopSettings {
  webhookSecret: string;
  /** The local sandbox of the service, and the credentials it issues tokens for. */
  pay: { apiBaseUrl: string; clientId: string; clientSecret: string; applicationUUID: string; lang: string };
  appUrl: string;
  /** Authorizes /api/cron/* on the app: the bench runs jobs the app's after() left behind. */
  cronSecret: string;
  /** The back office's password (the dashboard scenarios sign in once). */
  adminPassword: string;
}

export interface RunSetup {
  target: Target;
  /** e.g. "warm-up", "10 connections", "200 req/s". */
  phase: string;
  /** Unique in this bench run; scenarios tag the rows they create with it. */
  tag: string;
  /**
   * The most requests this run will send. A scenario whose requests use data up (one pending
   * order per delivery) prepares at least this many and reports it as `capacity`.
   */
  maxRequests: number;
  /** The bench's own connection to the database, for preparing and verifying. */
  database: pg.Pool;
  shop: ShopSettings;
}

export interface PreparedRun {
  /** The next request to send; called once per request sent, in the load generator. */
  next(): BenchRequest;
  /** How many requests `next` can give; unset: any number. The load stops there. */
  capacity?: number;
  /** Every answer, with the request it answers (the same object `next` returned). */
  answered?(request: BenchRequest, answer: { status: number; body: string }): void;
  /**
   * Called once the load has stopped: waits for what the run left behind to settle (requests
   * the server was still processing, background jobs), then checks the database against the
   * answers. Whatever it reports as problems makes the bench exit non-zero.
   */
  verify?(): Promise<Verification>;
}

export interface Verification {
  /** The gist, for the table of checks at the end, e.g. "1520 CON of 1520 sent, 0 lost, 0 doubled". */
  summary: string;
  /** What was checked and found, one line each, for the output. */
  lines: string[];
  /** What is wrong (a lost or doubled transition, a wrong answer); empty when all is well. */
  problems: string[];
}

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}

/** A run that sends the same request every time and checks nothing afterwards. */
export function sameRequestEveryTime(request: BenchRequest): PreparedRun {
  return { next: () => request };
}
