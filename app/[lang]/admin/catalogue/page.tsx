import type { Metadata } from "next";
import { Flash } from "@/components/admin/flash";
import { buttonClass } from "@/components/admin/product-form";
import { requireStaff } from "@/lib/http/admin-guard";
import { importFlashOf, type ImportFlash } from "@/lib/catalog/csv/flash";
import { CSV_COLUMNS, CSV_LIMITS, type CsvProblem, type ImportSummary } from "@/lib/catalog/csv/format";
import type { Dictionary } from "@/lib/i18n/dictionaries";
import { getLang } from "@/lib/http/request-lang";

// The catalogue as CSV (lib/catalog/csv/): the export's two downloads, and the import in two
// steps that work without JavaScript. "Check" posts the file to the import route with ?dryRun=1,
// which comes back here with every problem by line and column (the first 30) or with what the
// file would change; then "Import" sends the same file again with the SHA-256 the check answered.
export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getLang();
  return { title: t.admin.catalogue.title, robots: { index: false, follow: false } };
}

const IMPORT_ROUTE = "/api/admin/catalogue/import";
const EXPORT_ROUTE = "/api/admin/catalogue/export";
const fileClass =
  "w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-stone-200 file:px-3 file:py-1.5";
const EXAMPLE = [
  CSV_COLUMNS.join(","),
  '"cafe-torrado-1kg","Café torrado, 1 kg",Torra média.,8500,30,Mercearia > Café|Ofertas,/api/images/<id>|/products/cafe.svg,Pacote de 1 kg|Grãos de perto,,,,,,,CAF-1KG',
  "mel-500g,Mel 500 g,Mel do Huambo.,4500,25,Mercearia > Doces,,,,,,,,,",
  "t-shirt-kianda,T-shirt Kianda,Algodão.,9000,5,Roupa,/products/t-shirt.svg,T-shirt Kianda,Tamanho,M,Cor,Azul,,,TK-M-AZ",
  "t-shirt-kianda,,,9500,2,,,,Tamanho,G,Cor,Azul,,,TK-G-AZ",
].join("\n");

export default async function AdminCatalogPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireStaff("/admin/catalogue");
  const [{ t }, query] = await Promise.all([getLang(), searchParams]);
  const text = t.admin.catalogue;
  const flash = importFlashOf(query);
  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{text.title}</h1>
      <Outcome t={t} flash={flash} />

      {flash.kind === "checked" && (
        <form
          method="post"
          action={IMPORT_ROUTE}
          encType="multipart/form-data"
          className="flex flex-col gap-3 rounded-xl border border-brand-700 bg-white p-4"
          aria-labelledby="apply-title"
        >
          <h2 id="apply-title" className="text-lg font-semibold">
            {text.applyTitle}
          </h2>
          <p className="text-sm text-stone-600">{text.applyHint}</p>
          <input type="hidden" name="checked" value={flash.checked} />
          <FileField id="apply-file" label={text.file} />
          <div>
            <button type="submit" className={buttonClass}>
              {text.apply}
            </button>
          </div>
        </form>
      )}

      <form
        method="post"
        action={`${IMPORT_ROUTE}?dryRun=1`}
        encType="multipart/form-data"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
        aria-labelledby="check-title"
      >
        <h2 id="check-title" className="text-lg font-semibold">
          {text.importTitle}
        </h2>
        <p className="text-sm text-stone-600">{text.importHint}</p>
        <FileField
          id="check-file"
          label={text.file}
          hint={text.fileHint(CSV_LIMITS.bytesMax / 1024 / 1024, CSV_LIMITS.rowsMax)}
        />
        <div>
          <button type="submit" className={buttonClass}>
            {text.check}
          </button>
        </div>
      </form>

      <section
        aria-labelledby="format-title"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="format-title" className="text-lg font-semibold">
          {text.formatTitle}
        </h2>
        <ul className="flex list-disc flex-col gap-1 pl-5 text-sm">
          <li>{text.formatHeader(CSV_COLUMNS.join(", "))}</li>
          {text.formatRules.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
        <p className="text-sm font-medium">{text.example}</p>
        <pre className="overflow-x-auto rounded-md bg-stone-100 p-3 text-xs" tabIndex={0}>
          {EXAMPLE}
        </pre>
      </section>

      <section
        aria-labelledby="export-title"
        className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4"
      >
        <h2 id="export-title" className="text-lg font-semibold">
          {text.exportTitle}
        </h2>
        <p className="text-sm text-stone-600">{text.exportHint}</p>
        <div className="flex flex-wrap gap-3">
          {/* Downloads, not pages: a plain <a>, which Next's Link would try to prefetch. */}
          <a href={EXPORT_ROUTE} className={buttonClass} download>
            {text.exportComma}
          </a>
          <a
            href={`${EXPORT_ROUTE}?delimiter=semicolon`}
            className="rounded-md border border-stone-300 px-4 py-2 font-medium hover:bg-stone-100"
            download
          >
            {text.exportSemicolon}
          </a>
        </div>
      </section>
    </section>
  );
}

function FileField({ id, label, hint }: { id: string; label: string; hint?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name="file"
        type="file"
        required
        accept=".csv,text/csv"
        className={fileClass}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-stone-600">
          {hint}
        </p>
      )}
    </div>
  );
}

function Outcome({ t, flash }: { t: Dictionary; flash: ImportFlash }) {
  const text = t.admin.catalogue;
  switch (flash.kind) {
    case "none":
      return null;
    case "error":
      return (
        <Flash kind="error" testId="catalogue-flash">
          {text.errors[flash.error]}
        </Flash>
      );
    case "checked":
    case "applied":
      return (
        <div
          role="status"
          data-testid="catalogue-flash"
          className="flex flex-col gap-2 rounded-md bg-green-50 px-3 py-2 text-green-900"
        >
          <p className="font-medium">{flash.kind === "checked" ? text.checked : text.applied}</p>
          <Summary t={t} summary={flash.summary} />
          {flash.kind === "applied" && <p className="text-sm">{text.appliedHint}</p>}
        </div>
      );
    case "invalid":
      return (
        <div
          role="alert"
          data-testid="catalogue-flash"
          className="flex flex-col gap-2 rounded-md bg-amber-50 px-3 py-2 text-amber-900"
        >
          <p className="font-medium">{text.invalid(flash.total)}</p>
          {flash.total > flash.problems.length && (
            <p className="text-sm">{text.firstProblems(flash.problems.length)}</p>
          )}
          <ol className="flex flex-col gap-1 text-sm">
            {flash.problems.map((problem, index) => (
              <li key={index} data-testid="csv-problem" data-line={problem.line} data-column={problem.column ?? ""}>
                <Problem t={t} problem={problem} />
              </li>
            ))}
          </ol>
        </div>
      );
  }
}

function Problem({ t, problem }: { t: Dictionary; problem: CsvProblem }) {
  const text = t.admin.catalogue;
  const where = problem.line === 0 ? text.wholeFile : text.line(problem.line);
  return (
    <>
      <span className="font-medium">{where}</span>
      {problem.column !== null && (
        <>
          {", "}
          <code className="rounded bg-amber-100 px-1">{problem.column}</code>
        </>
      )}
      {": "}
      {text.problems[problem.code](problem.value ?? "")}
    </>
  );
}

function Summary({ t, summary }: { t: Dictionary; summary: ImportSummary }) {
  const text = t.admin.catalogue.summary;
  const items: [string, number][] = [
    [text.rows, summary.rows],
    [text.created, summary.created],
    [text.updated, summary.updated],
    [text.unchanged, summary.unchanged],
    [text.categoriesCreated, summary.categoriesCreated],
    [text.imagesStored, summary.imagesStored],
    ...(summary.archived > 0 ? ([[text.archived, summary.archived]] as [string, number][]) : []),
  ];
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="catalogue-summary">
      {items.map(([label, value]) => (
        <div key={label} className="flex gap-1">
          <dt>{label}:</dt>
          <dd className="font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
