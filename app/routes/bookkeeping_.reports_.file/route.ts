/**
 * GET /bookkeeping/reports/file?report=eur&year=2026&format=xlsx|pdf (ADMIN, FINANCE): a report of
 * Buchhaltung as Excel or PDF, made from the same declaration as the screen (app/lib/report-tables.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { gridToXlsx, xlsxResponse } from "~/lib/excel.server";
import { contentDisposition } from "~/lib/file-names";
import { todayInBerlin } from "~/lib/format";
import { reportDocument, REPORT_TITLES } from "~/lib/report-tables";
import { reportRequest } from "~/lib/report-request";
import { portalClub } from "~/models/club-look.server";
import { buildReport } from "~/models/report-data.server";
import { requireAccess } from "~/services/auth.server";
import { RENDERING_FAILED, withPdfRenderer } from "~/services/pdf.server";

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "bookkeeping");
  const url = new URL(args.request.url);
  const request = reportRequest(url, todayInBerlin());
  const report = await buildReport(args.context.db, request.kind, request.year, request.keyDate);
  const base = `${REPORT_TITLES[request.kind]} ${request.kind === "open" ? request.keyDate : request.year}`;
  if (url.searchParams.get("format") === "pdf") {
    const html = reportDocument(report, (await portalClub(args.context.db)).name ?? "");
    try {
      const pdf = await withPdfRenderer(args.context.cloudflare.env, (renderer) => renderer.render(html));
      return new Response(pdf as Uint8Array<ArrayBuffer>, {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": contentDisposition("attachment", `${base}.pdf`),
          "Cache-Control": "private, no-store",
        },
      });
    } catch {
      return new Response(RENDERING_FAILED, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
  }
  // One sheet: each table's rows under its title (column 'Abschnitt'), the columns of all tables.
  const columns = [{ id: "section", header: "Abschnitt" }];
  for (const table of report.tables) for (const column of table.columns) if (!columns.some((known) => known.id === column.id)) columns.push(column);
  const rows = report.tables.flatMap((table) => [
    ...table.rows.map((row) => ({ ...row, section: table.title })),
    ...(table.sums ? [{ ...table.sums, section: `${table.title}: Summe` }] : []),
  ]);
  const excelColumns = columns.map((column) => ({ ...column, value: (row: Record<string, unknown>) => row[column.id] as string | number | null }));
  return xlsxResponse(
    gridToXlsx(
      excelColumns,
      columns.map((column) => column.id),
      rows,
      REPORT_TITLES[request.kind].slice(0, 31),
    ),
    `${base}.xlsx`,
  );
}
