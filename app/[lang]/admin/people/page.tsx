import type { Metadata } from "next";
import {
  AddPersonForm,
  PeopleFlashMessage,
  peopleFlashOf,
  PersonForms,
  RevealedPassword,
  SettingsForm,
} from "@/components/admin/people-forms";
import { RevealOnce } from "@/components/admin/reveal-once";
import { listPeople } from "@/lib/admin/people";
import { backOfficeSettings } from "@/lib/admin/settings";
import { requireStaff } from "@/lib/http/admin-guard";
import { revealedTo } from "@/lib/http/admin-reveal";
import { db } from "@/lib/db/client";
import { getLang } from "@/lib/http/request-lang";

// The owner's page of people (lib/admin/people.ts): everyone with their role, whether they may
// sign in and whether their two-step sign-in is on; each person's forms in a <details> (no script
// needed); the form to add one; the owner's settings (lib/admin/settings.ts). A password the shop
// made up is shown here once, after the form's redirect (lib/http/admin-reveal.ts).
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.people.title, robots: { index: false, follow: false } };
}

export default async function AdminPeoplePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await requireStaff("/admin/people");
  const [{ t }, query, people, settings] = await Promise.all([
    getLang(),
    searchParams,
    listPeople(db()),
    backOfficeSettings(db()),
  ]);
  const text = t.admin.people;
  const flash = peopleFlashOf(query);
  const revealed = await revealedTo(actor.id, query.reveal);
  const revealedFor =
    revealed?.kind === "password" ? people.find((person) => person.id === revealed.personId) : undefined;
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
      <PeopleFlashMessage t={t} flash={flash} />
      {revealed?.kind === "password" && revealedFor && (
        <RevealedPassword t={t} name={revealedFor.name} password={revealed.password} />
      )}
      {query.reveal !== undefined && <RevealOnce />}
      <p className="text-sm text-stone-600">{text.hint}</p>

      <div id="people" role="region" aria-labelledby="people-title" className="flex flex-col gap-3">
        <h2 id="people-title" className="text-lg font-semibold">
          {text.listTitle}
        </h2>
        <p className="text-sm text-stone-600">{text.roleHint}</p>
        <ul data-testid="people" className="flex flex-col gap-3">
          {people.map((person) => (
            <li
              key={person.id}
              data-testid="person"
              data-email={person.email}
              data-role={person.role}
              data-active={person.active ? "true" : "false"}
              className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
            >
              <h3 className="font-semibold break-words">
                {person.name} {person.id === actor.id && <span className="font-normal text-stone-600">{text.you}</span>}
              </h3>
              <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-4">
                <div className="min-w-0">
                  <dt className="text-stone-600">{text.email}</dt>
                  <dd className="break-all">{person.email}</dd>
                </div>
                <div>
                  <dt className="text-stone-600">{text.role}</dt>
                  <dd>{text.roles[person.role]}</dd>
                </div>
                <div>
                  <dt className="text-stone-600">{text.status}</dt>
                  <dd>{person.active ? text.active : text.disabled}</dd>
                </div>
                <div>
                  <dt className="text-stone-600">{text.twoFactor}</dt>
                  <dd>{person.twoFactorEnabled ? text.on : text.off}</dd>
                </div>
              </dl>
              <details open={flash.error !== undefined && flash.person === person.id}>
                <summary className="cursor-pointer underline">{text.manage(person.name)}</summary>
                <div className="mt-3">
                  <PersonForms t={t} person={person} flash={flash} />
                </div>
              </details>
            </li>
          ))}
        </ul>
      </div>

      <div
        id="new-person"
        role="region"
        aria-labelledby="new-person-title"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="new-person-title" className="text-lg font-semibold">
          {text.newPerson}
        </h2>
        <AddPersonForm t={t} flash={flash} />
      </div>

      <div
        id="settings"
        role="region"
        aria-labelledby="settings-title"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="settings-title" className="text-lg font-semibold">
          {text.settingsTitle}
        </h2>
        <SettingsForm t={t} requireTwoFactor={settings.requireTwoFactor} flash={flash} />
      </div>
    </section>
  );
}
