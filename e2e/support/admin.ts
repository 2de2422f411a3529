import type { Page } from "@playwright/test";
import { expect } from "./fixtures";
import { readE2eServerEnvironment } from "./server-environment";

/** Signs in to the back office with the e2e shop's ADMIN_PASSWORD (test-results/e2e-server.json), as the owner does. */
export async function signInToBackOffice(page: Page): Promise<void> {
  await page.goto("/admin");
  await page.getByLabel("Palavra-passe").fill(readE2eServerEnvironment().adminPassword);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Gestão da loja" })).toBeVisible();
}
