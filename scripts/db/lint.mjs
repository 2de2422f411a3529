// @ts-check
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { readLocalMigrations } from "./migrate.mjs";

/**
 * The migration lint (`npm run db:lint`; docs/database.md, "Changing the schema without breaking
 * the release that serves"). A production deploy migrates before it builds, so the release still
 * serving runs on the new schema for the whole build, and for good if the build fails: a new
 * migration must leave a schema that release works on. Squawk (squawk-cli, its binary from the
 * npm registry) checks every migration not yet released, as `.squawk.toml` configures it, and
 * this file adds what squawk does not check:
 *
 * - `ban-drop-column-default`: dropping a column's default breaks the release that still inserts
 *   without that column (it happened once, to invoice numbers);
 * - `contract-migration`: a rule that breaks the serving release may be switched off (squawk's
 *   `-- squawk-ignore <rule>` comment) only in a contract migration, one with a
 *   `-- contract: <what>, unused since <release>` line saying which release stopped using it.
 */

const require = createRequire(import.meta.url);

/** Squawk's rules (and ours) for changes that break the release still serving: off only in a contract migration. */
export const BREAKING_RULES = Object.freeze([
  "renaming-column",
  "renaming-table",
  "ban-drop-column",
  "ban-drop-table",
  "changing-column-type",
  "adding-required-field",
  "adding-not-nullable-field",
  "ban-drop-column-default",
]);

/** The rules this file checks, which squawk does not know (it calls an ignore comment naming only them unused). */
const OWN_RULES = Object.freeze(["ban-drop-column-default"]);

/** A contract migration says what it removes and which release stopped using it. */
const CONTRACT_LINE = /^\s*--\s*contract:\s*\S.{10,}$/im;

/** `-- squawk-ignore[-file] rule, rule` (no rules after -file: every rule). */
const IGNORE_COMMENT = /--\s*squawk-ignore(-file)?\b([^\n]*)/g;

/**
 * @typedef {object} LintProblem
 * @property {string} file The migration.sql, relative to the root.
 * @property {number} line 1-based.
 * @property {number} column 1-based.
 * @property {string} rule
 * @property {string} message
 * @property {string | null} help
 */

/**
 * @typedef {object} LintResult
 * @property {string[]} checked Migrations checked (not released), in order.
 * @property {string[]} released Migrations the configuration lists as released, which are not checked.
 * @property {LintProblem[]} problems
 */

/**
 * @param {{ root: string, migrationsDir?: string, configFile?: string }} options Paths relative to root.
 * @returns {Promise<LintResult>}
 */
export async function lintMigrations({ root, migrationsDir = "prisma/migrations", configFile = ".squawk.toml" }) {
  const config = parseToml(await readFile(path.join(root, configFile), "utf8"));
  const releasedPaths = new Set(/** @type {string[]} */ (config.excluded_paths ?? []));
  const migrations = (await readLocalMigrations(path.join(root, migrationsDir))).map((migration) => ({
    ...migration,
    file: path.posix.join(migrationsDir, migration.name, "migration.sql"),
  }));
  const unreleased = migrations.filter((migration) => !releasedPaths.has(migration.file));

  /** @type {LintProblem[]} */
  const problems = [];
  const known = new Set(migrations.map((migration) => migration.file));
  for (const file of releasedPaths) {
    if (!known.has(file)) {
      problems.push({
        file: configFile,
        line: 1,
        column: 1,
        rule: "released-migration-missing",
        message: `excluded_paths lists ${file}, which is not a migration here (a typo hides nothing, but says nothing either)`,
        help: "List each released migration as prisma/migrations/<name>/migration.sql.",
      });
    }
  }
  for (const transactional of [true, false]) {
    const files = unreleased.filter((migration) => migration.transactional === transactional);
    if (files.length === 0) continue;
    const sqlOf = new Map(files.map((migration) => [migration.file, migration.sql]));
    const found = await runSquawk(root, configFile, [...sqlOf.keys()], transactional);
    problems.push(...found.filter((problem) => !ignoresOnlyOwnRules(problem, sqlOf.get(problem.file) ?? "")));
  }
  for (const migration of unreleased) problems.push(...ownRules(migration.file, migration.sql));

  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  return {
    checked: unreleased.map((migration) => migration.name),
    released: migrations.filter((migration) => releasedPaths.has(migration.file)).map((migration) => migration.name),
    problems,
  };
}

/**
 * Squawk's JSON report for some files. A file that starts with `-- no-transaction` runs outside a
 * transaction, which changes what squawk asks of it (IF NOT EXISTS, so it can run again).
 * @param {string} root
 * @param {string} configFile
 * @param {string[]} files
 * @param {boolean} transactional
 * @returns {Promise<LintProblem[]>}
 */
async function runSquawk(root, configFile, files, transactional) {
  /** @type {string} */
  const binary = require("squawk-cli/js/index.js").getBinaryPath();
  const args = [
    "--config",
    configFile,
    "--reporter",
    "json",
    transactional ? "--assume-in-transaction" : "--no-assume-in-transaction",
    ...files,
  ];
  const { code, stdout, stderr } = await new Promise((resolve) =>
    execFile(binary, args, { cwd: root, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
  /** @type {{ file: string, line: number, column: number, rule_name: string, message: string, help: string | null }[]} */
  let report;
  try {
    report = JSON.parse(stdout || "[]");
  } catch {
    throw new Error(`squawk exited ${code} without a report: ${stderr || stdout}`.trim());
  }
  if (!Array.isArray(report) || (code !== 0 && report.length === 0)) {
    throw new Error(`squawk exited ${code}: ${stderr || stdout}`.trim());
  }
  return report.map((violation) => ({
    file: violation.file,
    line: violation.line + 1,
    column: violation.column + 1,
    rule: violation.rule_name,
    message: violation.message,
    help: violation.help,
  }));
}

/**
 * @param {string} file
 * @param {string} sql
 * @returns {LintProblem[]}
 */
function ownRules(file, sql) {
  /** @type {LintProblem[]} */
  const problems = [];
  const ignores = ignoreComments(sql);

  // SQL with comments blanked out (same length, so offsets still point at the file's lines).
  const code = sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "));
  for (const match of code.matchAll(/\bALTER\s+COLUMN\s+("(?:[^"]|"")+"|\w+)\s+DROP\s+DEFAULT\b/gi)) {
    const { line, column } = position(sql, match.index);
    if (ignores.covers("ban-drop-column-default", line)) continue;
    problems.push({
      file,
      line,
      column,
      rule: "ban-drop-column-default",
      message: `Dropping the default of column ${match[1]} breaks the release still serving if it inserts without that column.`,
      help: "Keep the default until a release that always sets the column is deployed, then drop it in a contract migration.",
    });
  }

  const switchedOff = ignores.rules.filter((rule) => rule === "*" || BREAKING_RULES.includes(rule));
  if (switchedOff.length && !CONTRACT_LINE.test(sql)) {
    const at = ignores.firstLine ?? 1;
    problems.push({
      file,
      line: at,
      column: 1,
      rule: "contract-migration",
      message:
        `Switches off ${switchedOff.map((rule) => (rule === "*" ? "every rule" : rule)).join(", ")}, which only a ` +
        "contract migration may: one that removes what a released version no longer uses.",
      help:
        'Add a line "-- contract: <the column or table>, unused since <the release, or its commit>", and deploy it only ' +
        "after that release (docs/database.md).",
    });
  }
  return problems;
}

/**
 * Squawk's ignore comments: `-- squawk-ignore a, b` covers its own line and the next; `-- squawk-ignore-file a`
 * the whole file (with no rules: every rule, "*").
 * @param {string} sql
 */
function ignoreComments(sql) {
  /** @type {{ line: number, rules: string[], file: boolean }[]} */
  const comments = [];
  for (const match of sql.matchAll(IGNORE_COMMENT)) {
    const rules = (match[2] ?? "")
      .split(/[\s,]+/)
      .map((rule) => rule.trim())
      .filter(Boolean);
    const file = Boolean(match[1]);
    comments.push({ line: position(sql, match.index).line, rules: file && rules.length === 0 ? ["*"] : rules, file });
  }
  return {
    comments,
    rules: [...new Set(comments.flatMap((comment) => comment.rules))],
    firstLine: comments[0]?.line,
    /** @param {string} rule @param {number} line */
    covers: (rule, line) =>
      comments.some(
        (comment) =>
          (comment.rules.includes(rule) || comment.rules.includes("*")) &&
          (comment.file || comment.line === line || comment.line === line - 1),
      ),
  };
}

/**
 * Squawk's "unused-ignore" for a comment that names only our own rules, which squawk cannot see used.
 * @param {LintProblem} problem
 * @param {string} sql
 */
function ignoresOnlyOwnRules(problem, sql) {
  if (problem.rule !== "unused-ignore") return false;
  const [comment] = ignoreComments(sql.split("\n")[problem.line - 1] ?? "").comments;
  return Boolean(comment?.rules.length && comment.rules.every((rule) => OWN_RULES.includes(rule)));
}

/** @param {string} text @param {number} offset */
function position(text, offset) {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/**
 * The report as people read it: one problem per line, with squawk's message and help.
 * @param {LintResult} result
 */
export function formatLintResult(result) {
  const lines = result.problems.flatMap((problem) => [
    `${problem.file}:${problem.line}:${problem.column}: ${problem.rule}: ${problem.message}`,
    ...(problem.help ? [`  help: ${problem.help}`] : []),
    ...(OWN_RULES.includes(problem.rule) ||
    problem.rule === "contract-migration" ||
    problem.rule === "released-migration-missing"
      ? []
      : [`  https://squawkhq.com/docs/${problem.rule}`]),
  ]);
  const released = `${result.released.length} released and left alone, as .squawk.toml's excluded_paths lists them`;
  const summary = result.problems.length
    ? `${result.problems.length} problem${result.problems.length === 1 ? "" : "s"} in ${result.checked.length} ` +
      `migration${result.checked.length === 1 ? "" : "s"} checked (${released}). A deploy migrates before it builds, so the release still ` +
      "serving must work on the new schema: expand now, contract in a later release (docs/database.md)."
    : `${result.checked.length} migration${result.checked.length === 1 ? "" : "s"} checked, no problems (${released}).`;
  return [...lines, summary].join("\n");
}
