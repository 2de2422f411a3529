import "server-only";
import { randomUUID } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import { MAX_IMAGE_BYTES } from "../catalog/images/validate";
import { formDataOf, readBodyCapped } from "./request-body";
import { isFormPost, isMultipart } from "./admin-requests";
import { adminCookie, adminCookieName } from "../admin/staff-session";

/** What seals a draft: the back office's secret. */
type AdminConfig = { sessionSecret: string };

/**
 * What a back-office form post carried when its session had ended: its text fields, sealed
 * (iron-session, under ADMIN_SESSION_SECRET) into a cookie for ADMIN_DRAFT_SECONDS, so that after
 * signing in again the page puts them back into the form (components/admin/draft-restorer.tsx).
 * Nothing is written on the server.
 */

export const ADMIN_DRAFT_COOKIE = "admin_draft";
/** Long enough to find the password and sign in again, short enough not to linger. */
export const ADMIN_DRAFT_SECONDS = 15 * 60;
/**
 * The fields' text a draft keeps at most (UTF-8 bytes of its JSON): sealed, it grows by a third
 * plus iron's envelope, and a cookie must stay under the 4096 bytes every browser accepts.
 */
export const DRAFT_TEXT_BYTES = 2600;
/** The largest form body read for a draft: a product's, with its image. */
const MAX_DRAFT_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;

const draftSchema = z.object({
  v: z.literal(1),
  /** Named in the address the sign-in returns to (`?draft=`): the page puts the draft back only then, once. */
  id: z.uuid(),
  /** The path the form posted to: the page puts the fields into the form with that action. */
  action: z.string().startsWith("/api/admin/"),
  /** The text fields, in the form's order, a name as often as the form sent it. */
  fields: z.array(z.tuple([z.string(), z.string()])),
  /** A file was chosen, and is lost. */
  filesLost: z.boolean(),
  /** Some text did not fit, or the body could not be read. */
  textLost: z.boolean(),
});
export type AdminDraft = z.infer<typeof draftSchema>;

/**
 * The draft of a browser's form post (urlencoded or multipart); its body is read here, and is not
 * read again. Files cannot be kept (a cookie holds about 4 KB; the server keeps nothing for a
 * request that is not signed in), and neither can text past DRAFT_TEXT_BYTES: the draft says so,
 * and the page tells the owner to choose the files again.
 */
export async function draftOf(request: Request): Promise<AdminDraft> {
  const draft: AdminDraft = {
    v: 1,
    id: randomUUID(),
    action: new URL(request.url).pathname,
    fields: [],
    filesLost: false,
    textLost: false,
  };
  if (!isFormPost(request) && !isMultipart(request)) return draft;
  const body = await readBodyCapped(request, MAX_DRAFT_BODY_BYTES);
  if (!body.ok) return { ...draft, textLost: true };
  let form: FormData;
  try {
    form = await formDataOf(body.bytes, request.headers.get("content-type")!);
  } catch {
    return { ...draft, textLost: true };
  }
  let bytes = Buffer.byteLength(JSON.stringify(draft));
  for (const [name, value] of form) {
    if (typeof value !== "string") {
      if (value.size > 0) draft.filesLost = true;
      continue;
    }
    const size = Buffer.byteLength(JSON.stringify([name, value])) + 1;
    if (bytes + size > DRAFT_TEXT_BYTES) {
      draft.textLost = true;
      continue;
    }
    bytes += size;
    draft.fields.push([name, value]);
  }
  return draft;
}

/** The draft's cookie. */
export async function draftCookie(draft: AdminDraft, admin: AdminConfig, appUrl: string) {
  const sealed = await sealData(draft, { password: admin.sessionSecret, ttl: ADMIN_DRAFT_SECONDS });
  return adminCookie(ADMIN_DRAFT_COOKIE, sealed, appUrl, ADMIN_DRAFT_SECONDS);
}

/** The draft cookie's name for a shop served at `appUrl`. */
export const draftCookieName = (appUrl: string) => adminCookieName(ADMIN_DRAFT_COOKIE, appUrl);

/** The draft a cookie holds, when it is one of ours and not past ADMIN_DRAFT_SECONDS. */
export async function unsealDraft(value: string | undefined, admin: AdminConfig): Promise<AdminDraft | undefined> {
  if (!value) return undefined;
  const parsed = draftSchema.safeParse(
    await unsealData(value, { password: admin.sessionSecret, ttl: ADMIN_DRAFT_SECONDS }),
  );
  return parsed.success ? parsed.data : undefined;
}
