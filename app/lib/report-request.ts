/** What a report request asks for (?report=eur&year=2026&date=31.12.2026), checked; anything else: the defaults. */
import { parseGermanDate } from "./format";
import { REPORT_KINDS, type ReportKind } from "./report-tables";

export type ReportRequest = { kind: ReportKind; year: number; keyDate: string; years: number[] };

export function reportRequest(url: URL, today: string): ReportRequest {
  const current = Number(today.slice(0, 4));
  const years = Array.from({ length: 6 }, (_, index) => current - index);
  const kind = REPORT_KINDS.find((entry) => entry === url.searchParams.get("report")) ?? "eur";
  const askedYear = Number(url.searchParams.get("year"));
  const year = years.includes(askedYear) ? askedYear : current;
  const date = parseGermanDate(url.searchParams.get("date") ?? "");
  return { kind, year, keyDate: date.success ? date.value : today, years };
}
