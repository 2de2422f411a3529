/**
 * The back office's own frame around its pages (components/admin/admin-shell.tsx): who is signed
 * in and in what role, the menu, and the page a role may not open. In English; composed into
 * ../back-office.ts.
 */

import type { adminShellTexts as pt } from "../pt/admin-shell";

export const adminShellTexts: typeof pt = {
  shell: {
    backOffice: "Management",
    skipToContent: "Skip to content",
    menu: "Menu",
    signedInAs: "Signed in as",
    roles: { owner: "Owner", staff: "Staff" },
    home: "Back to the management home",
    nav: { people: "People", activity: "Activity", account: "My account" },
  },
  forbidden: {
    title: "No access to this page",
    body: (role: string) => `The “${role}” role may not open this page. If you need it, ask the shop's owner.`,
  },
};
