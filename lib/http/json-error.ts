/** JSON error bodies share one shape: `{ error: { code, message } }`. */
export function jsonError(status: number, code: string, message: string, headers?: HeadersInit): Response {
  return Response.json({ error: { code, message } }, { status, headers });
}
