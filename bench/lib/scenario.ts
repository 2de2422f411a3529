import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";

/**
 * One thing to benchmark: a request the app answers, and the same work done by a bare
 * node:http server (the baseline) in the same run, so the figures are ratios against what
 * this machine and this database can do at all, not absolute numbers from somewhere else.
 * Add a scenario by writing one of these under bench/scenarios/ and listing it in
 * bench/scenarios/index.ts.
 */
export interface Scenario {
  /** Short and unique: the table's first column, and how BENCH_SCENARIOS selects it. */
  name: string;
  /** What one request does, for the output. */
  summary: string;
  /** The request both servers are sent, relative to their base address. */
  request: BenchRequest;
  /** The baseline's handler for `request`, given a pg pool on the bench database. */
  baselineHandler(database: pg.Pool): BaselineHandler;
  /**
   * Throws when the two answers to `request` are not equivalent (or not right), so a fast
   * wrong answer is never measured. Called once, before any load.
   */
  checkAnswers(answers: { app: Answer; baseline: Answer }): void;
}

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export type BaselineHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

export interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}
