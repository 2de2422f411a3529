import type { Scenario } from "../lib/scenario";
import { categoryPage2Scenario, categoryPageScenario } from "./category-pages";
import { createOrderScenario } from "./create-order";
import { dashboardMonthScenario, dashboardYearScenario } from "./dashboard";
import { catalogPageScenario, catalogPageSmallFileScenario, productPageScenario } from "./pages";
import { productsScenario } from "./products";
import { searchScenario } from "./search";
import { webhookConScenario, webhookDuplicateScenario } from "./webhooks";

/** Every scenario, in the order they run. */
export const SCENARIOS: readonly Scenario[] = [
  productsScenario,
  catalogPageScenario,
  productPageScenario,
  catalogPageSmallFileScenario,
  searchScenario,
  categoryPageScenario,
  categoryPage2Scenario,
  webhookConScenario,
  webhookDuplicateScenario,
  createOrderScenario,
  dashboardMonthScenario,
  dashboardYearScenario,
];

/** The scenarios named in BENCH_SCENARIOS (comma-separated), or all of them. */
export function selectScenarios(names: string | undefined): Scenario[] {
  if (!names?.trim()) return [...SCENARIOS];
  return names.split(",").map((name) => {
    const scenario = SCENARIOS.find((candidate) => candidate.name === name.trim());
    if (!scenario)
      throw new Error(
        `BENCH_SCENARIOS: no scenario "${name.trim()}" (there are: ${SCENARIOS.map((s) => s.name).join(", ")})`,
      );
    return scenario;
  });
}
