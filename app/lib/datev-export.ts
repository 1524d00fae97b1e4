/**
 * One DATEV export (issue 35 item 3): checks the period and the client data, writes the records,
 * and asks the log for the file's creation time, so the same records of the same period give the
 * same file byte for byte (app/models/bookkeeping.server.ts recordDatevExport).
 */
import {
  bookingLine,
  BOOKING_CATEGORY,
  datevFile,
  debtorLine,
  DEBTOR_CATEGORY,
  encodeWindows1252,
  MAX_BOOKINGS,
  type DatevBooking,
  type DatevDebtor,
} from "./datev";
import type { Chart } from "./ledger";
import { formatNumber } from "./format";

export const DATEV_PERIOD_ERRORS = {
  from: "Bitte den Beginn des Zeitraums als Datum angeben (TT.MM.JJJJ).",
  to: "Bitte das Ende des Zeitraums als Datum angeben (TT.MM.JJJJ).",
};

type Kind = "BOOKINGS" | "DEBTORS";

export type DatevExportInput = {
  kind: Kind;
  from: string;
  to: string;
  settings: { chart: Chart; advisorNumber: number | null; clientNumber: number | null; fiscalYearStartMonth: number; accountLength: number };
  bookings: DatevBooking[];
  debtors: DatevDebtor[];
};

export type DatevExportOutcome =
  { status: "built"; bytes: Uint8Array; records: number; repeated: boolean } | { status: "refused"; message: string; field?: string };

/** The first day of the fiscal year the date lies in. */
export function fiscalYearStartOf(isoDate: string, startMonth: number): string {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  return `${month >= startMonth ? year : year - 1}-${String(startMonth).padStart(2, "0")}-01`;
}

const CHART_CODES: Record<Chart, string> = { SKR42: "42", SKR03: "03", SKR04: "04" };

export const datevExportFileName = (kind: Kind, from: string, to: string) =>
  kind === "BOOKINGS"
    ? `EXTF_Buchungsstapel_${from.replaceAll("-", "")}_${to.replaceAll("-", "")}.csv`
    : `EXTF_Debitoren_${from.replaceAll("-", "")}_${to.replaceAll("-", "")}.csv`;

async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function buildDatevExport(
  input: DatevExportInput,
  record: (records: {
    kind: Kind;
    from: string | null;
    to: string | null;
    recordsSha256: string;
    records: number;
  }) => Promise<{ createdAt: string; repeated: boolean }>,
): Promise<DatevExportOutcome> {
  const { settings, from, to } = input;
  if (settings.advisorNumber === null || settings.clientNumber === null) {
    return { status: "refused", message: "Für den DATEV-Export fehlen Berater- und Mandantennummer: bitte unten unter „Kontenrahmen und Konten“ eintragen." };
  }
  if (from > to) return { status: "refused", message: "Der Zeitraum endet vor seinem Beginn.", field: "to" };
  const fiscalYearStart = fiscalYearStartOf(from, settings.fiscalYearStartMonth);
  if (fiscalYearStartOf(to, settings.fiscalYearStartMonth) !== fiscalYearStart) {
    return { status: "refused", message: "Ein Buchungsstapel umfasst höchstens ein Wirtschaftsjahr: bitte den Zeitraum teilen.", field: "to" };
  }
  const lines = input.kind === "BOOKINGS" ? input.bookings.map(bookingLine) : input.debtors.map(debtorLine);
  if (input.kind === "BOOKINGS" && lines.length > MAX_BOOKINGS) {
    return {
      status: "refused",
      message: `DATEV nimmt höchstens ${formatNumber(MAX_BOOKINGS)} Buchungen je Datei: bitte einen kürzeren Zeitraum wählen.`,
      field: "to",
    };
  }
  const { createdAt, repeated } = await record({ kind: input.kind, from, to, recordsSha256: await sha256Hex(lines.join("\n")), records: lines.length });
  const header = {
    category: input.kind === "BOOKINGS" ? BOOKING_CATEGORY : DEBTOR_CATEGORY,
    createdAt,
    advisorNumber: settings.advisorNumber,
    clientNumber: settings.clientNumber,
    fiscalYearStart,
    accountLength: settings.accountLength,
    chart: CHART_CODES[settings.chart],
    from,
    to,
    title: input.kind === "BOOKINGS" ? `Wuff ${from} bis ${to}` : "Wuff Debitoren",
  } as const;
  return { status: "built", bytes: encodeWindows1252(datevFile(header, lines)), records: lines.length, repeated };
}
