import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { z } from "zod";

/**
 * The sandbox's small HTTP vocabulary: what a handler receives, what it returns, and how it
 * refuses a request. Handlers are plain functions from SandboxRequest to Reply, so the
 * server alone touches sockets (and can log, fault or hold any request the same way).
 */

export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body as text: the sandbox checks exactly what the client sent. */
  body: string;
  /** Values of the `:name` segments of the matched route, decoded. */
  params: Record<string, string>;
}

interface ReplyBase {
  status: number;
  headers?: Record<string, string>;
  /** The `error` code of an error reply, kept apart from the body for the request log. */
  errorCode?: string;
}

/** The default: every API answer is JSON. */
export interface JsonReply extends ReplyBase {
  /** Serialised as JSON. */
  body: unknown;
  contentType?: undefined;
}

/** A page or script for a browser (the SDK, the hosted checkout, the dashboard), sent as is. */
export interface DocumentReply extends ReplyBase {
  body: string;
  /** e.g. `text/html; charset=utf-8`. */
  contentType: string;
}

export type Reply = JsonReply | DocumentReply;

/** Body size cap of every request (the contract shows none; 64 KiB is far above any real order). */
export const MAX_BODY_BYTES = 64 * 1024;

/** A refusal, thrown anywhere below a handler and answered as `{ error, message }`. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "SandboxError";
  }

  toReply(): JsonReply {
    return errorReply(this.status, this.code, this.message, this.headers);
  }
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): JsonReply => ({
  status,
  body,
  headers,
});

export const html = (status: number, body: string, headers?: Record<string, string>): DocumentReply => ({
  status,
  body,
  contentType: "text/html; charset=utf-8",
  headers,
});

export const javascript = (body: string, headers?: Record<string, string>): DocumentReply => ({
  status: 200,
  body,
  contentType: "application/javascript; charset=utf-8",
  headers,
});

export const css = (body: string, headers?: Record<string, string>): DocumentReply => ({
  status: 200,
  body,
  contentType: "text/css; charset=utf-8",
  headers,
});

export function errorReply(status: number, code: string, message: string, headers?: Record<string, string>): JsonReply {
  return { status, body: { error: code, message }, headers, errorCode: code };
}

/** Reads the whole body, keeping at most `limit` bytes so an oversized upload cannot exhaust memory. */
export async function readBody(request: IncomingMessage, limit: number): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit
    ? { text: "", tooLarge: true }
    : { text: Buffer.concat(chunks).toString("utf8"), tooLarge: false };
}

/** One header as a single string; repeated headers are joined the way HTTP folds them. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Refuses the request with 415 unless its Content-Type is `expected` (parameters such as charset allowed). */
export function requireMediaType(request: SandboxRequest, expected: string): void {
  const mediaType = headerValue(request.headers, "content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== expected) {
    throw new SandboxError(
      415,
      "unsupported_media_type",
      `Content-Type must be ${expected}, got ${mediaType ? JSON.stringify(mediaType) : "none"}`,
    );
  }
}

/** zod issues as one reason naming each field, e.g. `method: Invalid option`; `whole` names an issue of the whole value. */
export function describeIssues(error: z.ZodError, whole: string): string {
  return error.issues.map((issue) => `${issue.path.join(".") || whole}: ${issue.message}`).join("; ");
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new SandboxError(400, "invalid_json", "the body is not valid JSON");
  }
}
