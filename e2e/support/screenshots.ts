import type { Page, TestInfo } from "@playwright/test";
import { expectNoAxeViolations } from "./accessibility";
import { expect, loadAllImages } from "./fixtures";

export const SCREENSHOT_VIEWPORTS = [
  { name: "phone", size: { width: 390, height: 844 } },
  { name: "desktop", size: { width: 1280, height: 800 } },
] as const;

/**
 * A full-page screenshot of the page as it is, at phone and desktop widths, attached to the test
 * (test-results/). Nothing may be wider than the screen: a phone would scroll sideways. With
 * `accessible`, axe-core finds no violation at either width (./accessibility.ts).
 */
export async function screenshotAtEachWidth(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: { accessible?: boolean } = {},
): Promise<void> {
  for (const viewport of SCREENSHOT_VIEWPORTS) {
    await page.setViewportSize(viewport.size);
    await loadAllImages(page);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${viewport.name}`,
    ).toBeLessThanOrEqual(viewport.size.width);
    if (options.accessible) await expectNoAxeViolations(page, `${name} at ${viewport.name}`);
    const file = testInfo.outputPath(`${name}-${viewport.name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`${name}-${viewport.name}`, { path: file, contentType: "image/png" });
  }
}
