import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Twilio's Messages API (POST /2010-04-01/Accounts/{AccountSid}/Messages.json),
 * as the payment sandbox stands in for the payment service: lib/messages/twilio.ts is pointed at it
 * with TWILIO_API_BASE_URL and talks to it over HTTP through the real SDK. It is as strict as
 * Twilio about what a message needs, answers in Twilio's shapes (a message resource; an error's
 * code, message, more_info and status), and records every request it received.
 *
 * Twilio's answers it gives: 401 (20003) for wrong credentials; 404 (20404) for another path or
 * account; 400 for a missing To (21604), From and MessagingServiceSid (21603) or Body (21602), a
 * body over 1600 characters (21617), an invalid To (21211: not E.164, or +15005550001, Twilio's
 * test number for it) or From (21212), a bad Messaging Service SID (21701), and a WhatsApp To
 * with a non-WhatsApp From or the other way round (21910); otherwise 201 and the message, queued.
 */

export interface TwilioStandInRequest {
  method: string;
  path: string;
  /** The HTTP Basic credentials sent, decoded; null without them. */
  auth: { username: string; password: string } | null;
  contentType: string | null;
  /** The form fields (To, From, Body, …) as received. */
  form: Record<string, string>;
  /** What the stand-in answered. */
  status: number;
  /** Twilio's error code of the answer; null for a 201. */
  code: number | null;
  /** The message's sid, for a 201. */
  sid: string | null;
}

export interface TwilioStandIn {
  /** http://127.0.0.1:<port>: TWILIO_API_BASE_URL. */
  url: string;
  accountSid: string;
  authToken: string;
  /** Every request, in order. */
  requests: TwilioStandInRequest[];
  close(): Promise<void>;
}

const E164 = /^\+[1-9][0-9]{6,14}$/;
const SENDER_ID = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;
const MESSAGING_SERVICE_SID = /^MG[0-9a-fA-F]{32}$/;
/** Twilio's test number whose messages it refuses as an invalid To (error 21211). */
export const TWILIO_INVALID_TO = "+15005550001";
const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

class TwilioError {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly message: string,
  ) {}
}

/** Twilio's error body. */
const errorBody = (error: TwilioError) => ({
  code: error.code,
  message: error.message,
  more_info: `https://www.twilio.com/docs/errors/${error.code}`,
  status: error.status,
});

function basicAuth(header: string | undefined): TwilioStandInRequest["auth"] {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The checks Twilio makes of a new message's fields, in its order; the first failed one is the answer. */
function refusalOf(form: Record<string, string>): TwilioError | null {
  const { To: to, From: from, MessagingServiceSid: service, Body: body } = form;
  if (!to) return new TwilioError(400, 21604, "A 'To' phone number is required.");
  if (!from && !service) return new TwilioError(400, 21603, "A 'From' phone number is required.");
  if (!body) return new TwilioError(400, 21602, "Message body is required.");
  if (body.length > 1600)
    return new TwilioError(400, 21617, "The concatenated message body exceeds the 1600 character limit.");
  const toWhatsApp = to.startsWith("whatsapp:");
  const toNumber = toWhatsApp ? to.slice("whatsapp:".length) : to;
  if (!E164.test(toNumber) || toNumber === TWILIO_INVALID_TO)
    return new TwilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
  if (service !== undefined && !MESSAGING_SERVICE_SID.test(service))
    return new TwilioError(400, 21701, `The Messaging Service Sid ${service} is invalid.`);
  if (from !== undefined) {
    const fromWhatsApp = from.startsWith("whatsapp:");
    const fromAddress = fromWhatsApp ? from.slice("whatsapp:".length) : from;
    if (!(E164.test(fromAddress) || (!fromWhatsApp && SENDER_ID.test(fromAddress))))
      return new TwilioError(
        400,
        21212,
        `The 'From' number ${from} is not a valid phone number, shortcode, or alphanumeric sender ID.`,
      );
    if (fromWhatsApp !== toWhatsApp)
      return new TwilioError(400, 21910, "Invalid From and To pair. From and To should be of the same channel");
  } else if (toWhatsApp) {
    return new TwilioError(400, 21910, "Invalid From and To pair. From and To should be of the same channel");
  }
  return null;
}

/** Twilio's message resource for a message it queued. */
function messageResource(accountSid: string, sid: string, form: Record<string, string>) {
  const now = new Date().toUTCString().replace("GMT", "+0000");
  return {
    account_sid: accountSid,
    api_version: "2010-04-01",
    body: form.Body,
    date_created: now,
    date_sent: null,
    date_updated: now,
    direction: "outbound-api",
    error_code: null,
    error_message: null,
    from: form.From ?? null,
    messaging_service_sid: form.MessagingServiceSid ?? null,
    num_media: "0",
    num_segments: String(Math.max(1, Math.ceil((form.Body ?? "").length / 153))),
    price: null,
    price_unit: "USD",
    sid,
    status: "queued",
    subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
    to: form.To,
    uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
  };
}

export async function startTwilioStandIn(
  options: { accountSid?: string; authToken?: string } = {},
): Promise<TwilioStandIn> {
  const accountSid = options.accountSid ?? `AC${hex(16)}`;
  const authToken = options.authToken ?? hex(16);
  const requests: TwilioStandInRequest[] = [];

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    const contentType = request.headers["content-type"] ?? null;
    const raw = await readBody(request);
    const form =
      contentType?.split(";")[0]?.trim() === "application/x-www-form-urlencoded"
        ? Object.fromEntries(new URLSearchParams(raw))
        : {};
    const auth = basicAuth(request.headers.authorization);
    const answer = (status: number, body: unknown, code: number | null, sid: string | null = null) => {
      requests.push({ method: request.method ?? "", path, auth, contentType, form, status, code, sid });
      const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
      if (status === 401) headers["www-authenticate"] = 'Basic realm="Twilio API"';
      response.writeHead(status, headers).end(JSON.stringify(body));
    };
    const fail = (error: TwilioError) => answer(error.status, errorBody(error), error.code);

    if (!auth || !same(auth.username, accountSid) || !same(auth.password, authToken))
      return fail(new TwilioError(401, 20003, "Authentication Error - invalid username"));
    const match = MESSAGES_PATH.exec(path);
    if (!match || match[1] !== accountSid)
      return fail(new TwilioError(404, 20404, `The requested resource ${path} was not found`));
    if (request.method !== "POST") return fail(new TwilioError(405, 20004, "Method not allowed"));
    const refusal = refusalOf(form);
    if (refusal) return fail(refusal);
    const sid = `SM${hex(16)}`;
    answer(201, messageResource(accountSid, sid, form), null, sid);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
