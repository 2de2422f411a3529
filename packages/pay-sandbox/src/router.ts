import type { Reply, SandboxRequest } from "./http.js";

/**
 * A routes table with `:name` path segments. Each routes module (service API, control API,
 * and later the browser SDK and popup) contributes a RouteGroup; the server matches against
 * all of them in order.
 */

export type Method = "GET" | "POST" | "DELETE";

export interface Route {
  method: Method;
  /** e.g. `/__sandbox/orders/:externalTransactionId/confirm` */
  pattern: string;
  handle(request: SandboxRequest): Reply | Promise<Reply>;
}

export interface RouteGroup {
  /** Service-API routes are what a client of the service calls: they are logged and can be faulted. */
  serviceApi: boolean;
  routes: Route[];
}

export type RouteMatch =
  | { kind: "found"; route: Route; params: Record<string, string>; serviceApi: boolean }
  | { kind: "wrong_method"; allowed: Method[]; serviceApi: boolean }
  | { kind: "none" };

export function createRouter(groups: RouteGroup[]) {
  const table = groups.flatMap((group) =>
    group.routes.map((route) => ({ route, serviceApi: group.serviceApi, segments: route.pattern.split("/") })),
  );

  return function match(method: string, path: string): RouteMatch {
    const segments = path.split("/");
    const onPath = table.flatMap((entry) => {
      const params = matchSegments(entry.segments, segments);
      return params ? [{ ...entry, params }] : [];
    });
    const first = onPath[0];
    if (!first) return { kind: "none" };
    const exact = onPath.find((entry) => entry.route.method === method);
    if (exact) return { kind: "found", route: exact.route, params: exact.params, serviceApi: exact.serviceApi };
    return { kind: "wrong_method", allowed: onPath.map((entry) => entry.route.method), serviceApi: first.serviceApi };
  };
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, expected] of pattern.entries()) {
    const segment = actual[index] ?? "";
    if (expected.startsWith(":")) {
      if (segment === "") return undefined;
      const value = decodeSegment(segment);
      if (value === undefined) return undefined;
      params[expected.slice(1)] = value;
    } else if (expected !== segment) {
      return undefined;
    }
  }
  return params;
}

/** The decoded segment; undefined for broken percent-encoding, which then matches no route. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
