import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * axe-core's checks (WCAG 2.0, 2.1 and 2.2 A and AA, and its best practices) on the page as it is
 * now: any violation fails the test, listed by rule and element so the failure says what to fix.
 */
export async function expectNoAxeViolations(page: Page, name: string): Promise<void> {
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
