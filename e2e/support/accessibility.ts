import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * axe-core's checks (WCAG 2.0, 2.1 and 2.2 A and AA, and its best practices) on the page once it
 * has rendered: any violation fails the test, listed by rule and element so the failure says what
 * to fix. A page that streams shows its loading state (no level-one heading) until its content,
 * already in the document but hidden, is swapped in: the check waits for the page's heading. Next
 * streams a dynamic page's metadata after its content, and on a client-side navigation the old
 * `<title>` is gone until the new one arrives (a few tens of milliseconds, seen on the success page
 * when the webhook was faster than the popup): the check also waits for the title, so axe's
 * document-title rule still fails a page that never gets one.
 */
export async function expectNoAxeViolations(page: Page, name: string): Promise<void> {
  await expect(
    page.getByRole("heading", { level: 1 }).first(),
    `${name}: the page itself, not its loading state`,
  ).toBeVisible();
  await expect(page, `${name}: its title, streamed after the page`).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  const violations = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
        .map((node) => node.target.join(" "))
        .join(", ")}`,
  );
  expect(violations, `axe-core on ${name}`).toEqual([]);
}
