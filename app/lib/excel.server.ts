/**
 * Grids to Excel: the visible columns with their German headers, dates as real Excel dates,
 * money as numbers in euro format (write-excel-file, which runs in workerd: no Node APIs).
 */
import { TZDate } from "@date-fns/tz";
import writeXlsxFile, { type Cell } from "write-excel-file/universal";
import { TIME_ZONE } from "./format";
import type { CellType, CellValue } from "./grid";

/** What the export needs of a grid column (its declaration). */
type ExcelColumn<Row> = { id: string; header: string; value: (row: Row) => CellValue; type?: CellType };

const MONEY_FORMAT = '#,##0.00 "€"';

/** Excel dates have no time zone: a calendar day or a Berlin wall-clock time as UTC fields. */
function excelDate(value: string, withTime: boolean): Date | null {
  if (!withTime) {
    const [year, month, day] = value.slice(0, 10).split("-").map(Number);
    return year ? new Date(Date.UTC(year, month - 1, day)) : null;
  }
  const berlin = new TZDate(new Date(value), TIME_ZONE);
  return Number.isNaN(berlin.getTime())
    ? null
    : new Date(Date.UTC(berlin.getFullYear(), berlin.getMonth(), berlin.getDate(), berlin.getHours(), berlin.getMinutes()));
}

function toCell<Row>(column: ExcelColumn<Row>, value: CellValue): Cell {
  if (value === null || value === undefined || value === "") return null;
  switch (column.type) {
    case "date":
      return { type: Date, value: excelDate(String(value), false) ?? undefined, format: "dd.mm.yyyy" };
    case "dateTime":
    case "dateTimeWeekday":
    case "dateTimeSeconds":
      return { type: Date, value: excelDate(String(value), true) ?? undefined, format: "dd.mm.yyyy hh:mm" };
    case "money":
      return { type: Number, value: Number(value) / 100, format: MONEY_FORMAT };
    case "number":
      return { type: Number, value: Number(value) };
    case "checkbox":
      return { type: String, value: value ? "ja" : "nein" };
    default:
      return { type: String, value: String(value) };
  }
}

/** An .xlsx of `rows` with the columns `visible` (in that order). */
export async function gridToXlsx<Row>(columns: ExcelColumn<Row>[], visible: string[], rows: Row[], sheet: string): Promise<Blob> {
  const shown = visible.map((id) => columns.find((column) => column.id === id)).filter((column) => column !== undefined);
  const header: Cell[] = shown.map((column) => ({ value: column.header, fontWeight: "bold" }));
  const body: Cell[][] = rows.map((row) => shown.map((column) => toCell(column, column.value(row))));
  return writeXlsxFile([header, ...body], {
    sheet,
    stickyRowsCount: 1,
    columns: shown.map((column) => ({ width: column.type === "date" ? 12 : column.type === "money" ? 14 : 20 })),
  }).toBlob();
}

/** The download response for an .xlsx. */
export function xlsxResponse(blob: Blob, fileName: string): Response {
  return new Response(blob, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
