import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { adminAction, formBody } from "./admin-action";
import { withQueryParameter } from "./return-path";
import { revealCookie } from "./admin-reveal";
import { addPerson, PEOPLE_PAGE, updatePerson, type PersonResult } from "../admin/people";
import { updateSettings } from "../admin/settings";
import { staffAuth } from "../admin/staff-auth";
import type { Actor } from "../admin/staff-events";
import { db } from "../db/client";
import type { FlashKeys } from "../flash";

/**
 * The owner's forms and JSON calls on /admin/people (app/api/admin/people, app/api/admin/settings),
 * through the one back-office action. A password the shop made up is answered once: in a JSON
 * client's answer, or, for the page's form, in a sealed cookie its redirect names by a random id
 * (./admin-reveal.ts), never in the address.
 */

/** A person's forms are small: a name, an e-mail, a role, a password. */
const MAX_PEOPLE_BODY_BYTES = 16 * 1024;

const PEOPLE_FLASH: FlashKeys = { done: "done", error: "error", field: "field", hash: "#people" };
const NEW_PERSON_FLASH: FlashKeys = { ...PEOPLE_FLASH, hash: "#new-person" };
const SETTINGS_FLASH: FlashKeys = { ...PEOPLE_FLASH, hash: "#settings" };

/** The JSON of a person's change: the person, and the password made up for them when there is one (this once). */
const personJson = (result: Extract<PersonResult, { ok: true }>) => ({
  person: result.person,
  ...(result.password ? { password: result.password } : {}),
});

/** No cache anywhere keeps an answer that may carry a password. */
const NO_STORE = { "Cache-Control": "no-store" };

/** `change`, whose made-up password a browser is shown on the page once, by a sealed cookie. */
async function personAction(
  request: NextRequest,
  options: {
    change: (fields: Record<string, unknown>, actor: Actor) => Promise<PersonResult>;
    flash: FlashKeys;
    status: number;
    refusedFlash?: Record<string, string>;
  },
): Promise<Response> {
  let reveal: Awaited<ReturnType<typeof revealCookie>> | undefined;
  const response = await adminAction<PersonResult>(request, {
    changesShopPages: false,
    page: PEOPLE_PAGE,
    flash: options.flash,
    refusedFlash: options.refusedFlash,
    body: formBody(MAX_PEOPLE_BODY_BYTES),
    action: async ({ fields }, { browser, actor }) => {
      const result = await options.change(fields, actor);
      if (result.ok && result.password && browser)
        reveal = await revealCookie(actor.id, {
          kind: "password",
          personId: result.person.id,
          password: result.password,
        });
      return result;
    },
    donePage: () => (reveal ? withQueryParameter(PEOPLE_PAGE, "reveal", reveal.id) : PEOPLE_PAGE),
    json: (result) => ({
      status: options.status,
      body: { ...personJson(result), ...(options.status === 200 ? { sessionsEnded: result.sessionsEnded } : {}) },
      headers: NO_STORE,
    }),
  });
  if (reveal && response instanceof NextResponse) response.cookies.set(reveal.cookie);
  return response;
}

/** POST /api/admin/people: `{ name, email, role, password? }` → 201 with the person (and a made-up password). */
export const addPersonAction = (request: NextRequest) =>
  personAction(request, {
    change: (fields, actor) => addPerson(fields, { db: db(), auth: staffAuth()!, actor }),
    flash: NEW_PERSON_FLASH,
    status: 201,
  });

/** POST /api/admin/people/<id>: any of `{ role, active, password }` → 200 with the person. */
export const updatePersonAction = (request: NextRequest, id: string) =>
  personAction(request, {
    change: (fields, actor) => updatePerson(id, fields, { db: db(), auth: staffAuth()!, actor }),
    flash: PEOPLE_FLASH,
    status: 200,
    // The row whose form it was opens again with the refusal.
    refusedFlash: { person: id },
  });

/** POST /api/admin/settings: `{ requireTwoFactor }` → 200 with the settings. */
export const settingsAction = (request: NextRequest) =>
  adminAction(request, {
    changesShopPages: false,
    page: PEOPLE_PAGE,
    flash: SETTINGS_FLASH,
    body: formBody(MAX_PEOPLE_BODY_BYTES),
    action: ({ fields }, { actor }) => updateSettings(fields, { db: db(), actor }),
    json: (result) => ({ status: 200, body: { settings: result.settings } }),
  });
