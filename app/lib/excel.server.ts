/**
 * Grids to Excel: the visible columns with their German headers, dates as real Excel dates,
 * money as numbers in euro format.
 *
 * The .xlsx is written here as a stream (SpreadsheetML parts zipped by fflate's streaming `Zip`
 * with the synchronous `ZipDeflate`): write-excel-file and fflate's `zip()` hand files of 160 KB
 * or more to a Web Worker, which workerd lacks (a 500 from about 1,700 rows on), and would build
 * the whole sheet as one string. Here the sheet is deflated a slice of rows at a time while the
 * browser downloads it, so 50,000 rows need neither a worker nor the whole file in memory.
 */
import { Zip, ZipDeflate } from "fflate";
import { contentDisposition } from "./file-names";
import { berlinOffsetMinutes } from "./format";
import type { CellType, CellValue } from "./grid";

/** What the export needs of a grid column (its declaration). */
type ExcelColumn<Row> = { id: string; header: string; value: (row: Row) => CellValue; type?: CellType };

/** Rows deflated per pull of the download stream: small slices keep memory flat. */
const ROWS_PER_SLICE = 500;
/** Excel's limit of characters in one cell. */
const MAX_CELL_TEXT = 32767;

/** Cell styles of styles.xml (index into cellXfs). */
const STYLE = { header: 1, date: 2, dateTime: 3, money: 4 } as const;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";

/** Characters XML 1.0 cannot carry (control characters, lone surrogates) are left out. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const escapeXml = (text: string) => text.replace(INVALID_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A calendar day as UTC fields (Excel dates have no time zone). */
function excelDay(value: string): Date | null {
  const [year, month, day] = value.slice(0, 10).split("-").map(Number);
  return year ? new Date(Date.UTC(year, month - 1, day)) : null;
}

/** An instant as its Berlin wall-clock time to the minute, as UTC fields. */
function excelWallClock(value: string): Date | null {
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return null;
  return new Date(Math.floor((instant + berlinOffsetMinutes(instant) * 60_000) / 60_000) * 60_000);
}

/** Excel's serial day number (days since 1899-12-30) of a date given as UTC fields. */
const serialOf = (date: Date) => date.getTime() / 86_400_000 + 25_569;

/** "A", "B", ..., "Z", "AA", ... */
function columnLetters(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

// Text is always an inline string: never a formula, whatever it starts with (no formula injection).
// Spaces at either end are kept only when marked (most cells need no mark: a smaller file).
const textCell = (ref: string, text: string, style = 0) =>
  `<c r="${ref}"${style ? ` s="${style}"` : ""} t="inlineStr"><is><t${/^\s|\s$/.test(text) ? ' xml:space="preserve"' : ""}>${escapeXml(text.slice(0, MAX_CELL_TEXT))}</t></is></c>`;
const numberCell = (ref: string, value: number, style = 0) =>
  Number.isFinite(value) ? `<c r="${ref}"${style ? ` s="${style}"` : ""}><v>${value}</v></c>` : "";
const dateCell = (ref: string, date: Date | null, style: number) => (date ? numberCell(ref, serialOf(date), style) : "");

function cellXml(type: CellType | undefined, ref: string, value: CellValue): string {
  if (value === null || value === undefined || value === "") return "";
  switch (type) {
    case "date":
      return dateCell(ref, excelDay(String(value)), STYLE.date);
    case "dateTime":
    case "dateTimeWeekday":
    case "dateTimeSeconds":
      return dateCell(ref, excelWallClock(String(value)), STYLE.dateTime);
    case "money":
      return numberCell(ref, Number(value) / 100, STYLE.money);
    case "number":
      return numberCell(ref, Number(value));
    case "checkbox":
      return textCell(ref, value ? "ja" : "nein");
    default:
      return textCell(ref, String(value));
  }
}

const columnWidth = (type: CellType | undefined) =>
  type === "date" ? 12 : type === "money" ? 14 : type === "dateTime" || type === "dateTimeWeekday" || type === "dateTimeSeconds" ? 17 : 20;

/** The parts of the workbook besides the sheet: one sheet, its styles, the package's index. */
function workbookParts(sheet: string): Record<string, string> {
  return {
    "[Content_Types].xml":
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      "</Types>",
    "_rels/.rels":
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
      `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
      "</Relationships>",
    "xl/workbook.xml":
      `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      `<sheets><sheet name="${escapeXml(sheet.replace(/[\\/?*[\]:]/g, " ").slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets>` +
      "</workbook>",
    "xl/_rels/workbook.xml.rels":
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
      `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
      "</Relationships>",
    // cellXfs in the order of STYLE: normal, bold header, date, date and time, money.
    "xl/styles.xml":
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      '<numFmts count="3"><numFmt numFmtId="164" formatCode="dd.mm.yyyy"/><numFmt numFmtId="165" formatCode="dd.mm.yyyy hh:mm"/>' +
      '<numFmt numFmtId="166" formatCode="#,##0.00 &quot;€&quot;"/></numFmts>' +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
      '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
      '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
      '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      "</styleSheet>",
  };
}

/**
 * An .xlsx of `rows` with the columns `visible` (in that order), header row bold and frozen, as a
 * stream: each pull deflates the next slice of rows.
 */
export function gridToXlsx<Row>(
  columns: ExcelColumn<Row>[],
  visible: string[],
  rows: Row[],
  sheet: string,
  /** A last row 'Summe' with these totals (by column id, as the grid's footer shows them). */
  sums: Record<string, number> = {},
): ReadableStream<Uint8Array> {
  const shown = visible.map((id) => columns.find((column) => column.id === id)).filter((column) => column !== undefined);
  const letters = shown.map((_, index) => columnLetters(index));
  const encoder = new TextEncoder();
  let sheetPart: ZipDeflate;
  let next = 0;
  let emitted = false;

  const sheetHead =
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (shown.length
      ? `<cols>${shown.map((column, index) => `<col min="${index + 1}" max="${index + 1}" width="${columnWidth(column.type)}" customWidth="1"/>`).join("")}</cols>`
      : "") +
    "<sheetData>" +
    `<row r="1">${shown.map((column, index) => textCell(`${letters[index]}1`, column.header, STYLE.header)).join("")}</row>`;

  // The totals under their columns, 'Summe' in the first column that has none.
  const sumsRow = (number: number) => {
    if (!shown.some((column) => column.id in sums)) return "";
    const label = shown.findIndex((column) => !(column.id in sums));
    const cells = shown
      .map((column, index) =>
        column.id in sums
          ? cellXml(column.type, `${letters[index]}${number}`, sums[column.id])
          : index === label
            ? textCell(`${letters[index]}${number}`, "Summe", STYLE.header)
            : "",
      )
      .join("");
    return `<row r="${number}">${cells}</row>`;
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error);
        if (chunk.length) {
          controller.enqueue(chunk);
          emitted = true;
        }
        if (final) controller.close();
      });
      for (const [name, xml] of Object.entries(workbookParts(sheet))) {
        const part = new ZipDeflate(name);
        zip.add(part);
        part.push(encoder.encode(xml), true);
      }
      sheetPart = new ZipDeflate("xl/worksheets/sheet1.xml");
      zip.add(sheetPart);
      sheetPart.push(encoder.encode(sheetHead));
      // The archive's directory follows the last part once that part is complete.
      zip.end();
    },
    pull() {
      // Deflate may hold back a small slice: go on until the download has received something, as
      // a pull that enqueues nothing is not called again.
      emitted = false;
      while (!emitted && next <= rows.length) {
        const end = Math.min(rows.length, next + ROWS_PER_SLICE);
        let xml = "";
        for (; next < end; next++) {
          const row = rows[next];
          const number = next + 2;
          let cells = "";
          for (let index = 0; index < shown.length; index++) cells += cellXml(shown[index].type, `${letters[index]}${number}`, shown[index].value(row));
          xml += `<row r="${number}">${cells}</row>`;
        }
        if (next < rows.length) {
          sheetPart.push(encoder.encode(xml));
        } else {
          sheetPart.push(encoder.encode(`${xml}${sumsRow(rows.length + 2)}</sheetData></worksheet>`), true);
          next = rows.length + 1;
        }
      }
    },
  });
}

/** The download response for an .xlsx (a stream: no length known in advance). */
export function xlsxResponse(body: ReadableStream<Uint8Array>, fileName: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "Content-Disposition": contentDisposition("attachment", fileName),
      "Cache-Control": "no-store",
    },
  });
}
