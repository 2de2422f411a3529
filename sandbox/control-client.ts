import { CONTROL_TOKEN_HEADER } from "./control-access";

/**
 * The one client of a running sandbox's control API (`/__sandbox/*`): the sandbox's own tests
 * (testing.ts), the app's tests (tests/support/sandbox.ts), the e2e fixtures and `npm run
 * sandbox -- trigger` all go through it, so the token header and the JSON body are sent the
 * same way everywhere. It only depends on fetch, so Playwright's workers can load it too.
 */

export interface ControlAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON answer (`any`: each caller reads the shape it expects); undefined when the answer is not JSON. */
  body: any;
}

export interface ControlAddress {
  /** The sandbox, e.g. http://127.0.0.1:4010, without a trailing slash. */
  url: string;
  /** The run's token, printed at start as SANDBOX_TOKEN=…. */
  token: string;
}

export function controlClient({ url, token }: ControlAddress) {
  /** One call, `path` relative to /__sandbox; a body is sent as JSON. Rejects only when nothing answers. */
  async function request(method: string, path: string, body?: unknown): Promise<ControlAnswer> {
    const response = await fetch(`${url}/__sandbox${path}`, {
      method,
      headers: {
        [CONTROL_TOKEN_HEADER]: token,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseJson(text) };
  }

  return { url, token, request, dashboardUrl: dashboardUrlOf({ url, token }) };
}

export type ControlClient = ReturnType<typeof controlClient>;

/** The dashboard's address for a person: the token rides in the query, and the page's own calls send the header. */
export const dashboardUrlOf = ({ url, token }: ControlAddress): string =>
  `${url}/__sandbox/dashboard?token=${encodeURIComponent(token)}`;

function parseJson(text: string): unknown {
  try {
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
