/**
 * The report a request names (issue 35 item 4), built from the models: shared by the screen and
 * its downloads, so the Excel file and the PDF show what the screen shows.
 */
import type { Db } from "~/db/client.server";
import { assemblyReportDocument, incomeStatementReport, openItemsReport, type Report, type ReportKind } from "~/lib/report-tables";
import { assemblyReport, incomeStatement, openItemsAt } from "./reports.server";

export async function buildReport(db: Db, kind: ReportKind, year: number, keyDate: string): Promise<Report> {
  switch (kind) {
    case "eur":
      return incomeStatementReport(await incomeStatement(db, year));
    case "open":
      return openItemsReport(keyDate, await openItemsAt(db, keyDate));
    case "assembly":
      return assemblyReportDocument(await assemblyReport(db, year));
  }
}
