import type { Scenario } from "../lib/scenario";
import { categoryPage2Scenario, categoryPageScenario } from "./category-pages";
import { createOrderScenario } from "./create-order";
import { dashboardMonthScenario, dashboardYearScenario } from "./dashboard";
import { catalogPageScenario, catalogPageSmallFileScenario, productPageScenario } from "./pages";
import { productsScenario } from "./products";
import { searchScenario } from "./search";
import { webhookConScenario, webhookDuplicateScenario } from "./webhooks";

/**
 * Every scenario, in the order they run. The dashboard's come before the payments': those write
 * some 15 000 orders dated today, and their jobs go on changing orders for a while after, so a
 * dashboard measured after them would be a day of 15 000 orders read again at every change, not
 * the year of 100 000 orders its goal is stated over (bench/README.md).
 */
export const SCENARIOS: readonly Scenario[] = [
  productsScenario,
  catalogPageScenario,
  productPageScenario,
  catalogPageSmallFileScenario,
  searchScenario,
  categoryPageScenario,
  categoryPage2Scenario,
  dashboardMonthScenario,
  dashboardYearScenario,
  webhookConScenario,
  webhookDuplicateScenario,
  createOrderScenario,
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
