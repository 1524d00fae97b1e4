/**
 * The reports of Buchhaltung (issue 35 item 4) declared once as tables: the screen shows them, the
 * Excel file and the PDF are made from the same declaration (app/lib/excel.server.ts,
 * reportDocument below).
 */
import Mustache from "mustache";
import type { CellType, CellValue } from "./grid";
import { formatDate, formatMoney, formatNumber } from "./format";
import { SPHERE_OPTIONS, type Sphere } from "./ledger";
import type { IncomeLine, SphereTotal } from "./reports";

type ReportColumn = { id: string; header: string; type?: CellType };
type ReportTable = { title: string; columns: ReportColumn[]; rows: Record<string, CellValue>[]; sums?: Record<string, number> };
export type Report = { title: string; subtitle: string; tables: ReportTable[]; notes: string[] };

export const REPORT_KINDS = ["eur", "open", "assembly"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_TITLES: Record<ReportKind, string> = {
  eur: "Einnahmenüberschussrechnung",
  open: "Offene Posten zum Stichtag",
  assembly: "Bericht für die Mitgliederversammlung",
};

const sphereLabel = (sphere: Sphere | null) => SPHERE_OPTIONS.find((option) => option.value === sphere)?.label ?? "ohne Sphäre";

/** The EÜR: per sphere its accounts, then the spheres' totals (a business's: one table). */
export function incomeStatementReport(statement: {
  year: number;
  from: string;
  to: string;
  spheres: boolean;
  lines: IncomeLine[];
  totals: SphereTotal[];
  journalTotal: number;
}): Report {
  const columns: ReportColumn[] = [
    { id: "account", header: "Konto" },
    { id: "name", header: "Bezeichnung" },
    { id: "income", header: "Einnahmen", type: "money" },
    { id: "expense", header: "Ausgaben", type: "money" },
    { id: "result", header: "Ergebnis", type: "money" },
  ];
  const row = (line: IncomeLine) => ({
    account: line.account,
    name: line.name,
    income: line.income,
    expense: line.expense,
    result: line.income - line.expense,
  });
  const groups = statement.spheres ? statement.totals.map((total) => total.sphere) : [null];
  const tables: ReportTable[] = groups.map((sphere) => {
    const lines = statement.spheres ? statement.lines.filter((line) => line.sphere === sphere) : statement.lines;
    const rows = lines.map(row);
    return {
      title: statement.spheres ? sphereLabel(sphere) : "Einnahmen und Ausgaben",
      columns,
      rows,
      sums: { income: sum(rows, "income"), expense: sum(rows, "expense"), result: sum(rows, "result") },
    };
  });
  if (statement.spheres) {
    const rows = statement.totals.map((total) => ({ sphere: sphereLabel(total.sphere), income: total.income, expense: total.expense, result: total.result }));
    tables.push({
      title: "Ergebnis je Sphäre",
      columns: [{ id: "sphere", header: "Sphäre" }, ...columns.slice(2)],
      rows,
      sums: { income: sum(rows, "income"), expense: sum(rows, "expense"), result: sum(rows, "result") },
    });
  }
  return {
    title: `${REPORT_TITLES.eur} ${statement.year}`,
    subtitle: `${formatDate(statement.from)} bis ${formatDate(statement.to)}, Zu- und Abfluss (§ 4 Abs. 3, § 11 EStG)`,
    tables,
    notes: [
      `Summe aller Zahlungen des Jahres im Zahlungsjournal: ${formatMoney(statement.journalTotal)}.`,
      "Eine Zahlung auf eine Rechnung ist auf deren Zeilen im Verhältnis ihrer Beträge verteilt, auf den Cent genau.",
      "Ausgaben erfasst Wuff nur, soweit sie durch Wuff laufen; Ausgaben vom Bankkonto bucht der Steuerberater aus dem Kontoauszug.",
    ],
  };
}

export function openItemsReport(
  keyDate: string,
  items: { name: string; document: string; date: string; dueDate: string | null; amount: number; open: number }[],
): Report {
  const rows = items.map((item) => ({
    name: item.name,
    document: item.document,
    date: item.date,
    dueDate: item.dueDate,
    amount: item.amount,
    open: item.open,
  }));
  return {
    title: REPORT_TITLES.open,
    subtitle: `Stand ${formatDate(keyDate)}, Tagesende`,
    tables: [
      {
        title: `${items.length} offene Posten`,
        columns: [
          { id: "name", header: "Person" },
          { id: "document", header: "Beleg" },
          { id: "date", header: "Datum", type: "date" },
          { id: "dueDate", header: "Fällig", type: "date" },
          { id: "amount", header: "Betrag", type: "money" },
          { id: "open", header: "Offen", type: "money" },
        ],
        rows,
        sums: { amount: sum(rows, "amount"), open: sum(rows, "open") },
      },
    ],
    notes: ["Ausgestellte Rechnungen und direkt eingezogene Posten bis zum Stichtag, abzüglich der bis dahin gebuchten Zahlungen und Verrechnungen."],
  };
}

export function assemblyReportDocument(report: {
  year: number;
  keyDate: string;
  membersByType: { type: string; members: number; joined: number; left: number }[];
  incomeByPurpose: { label: string; income: number }[];
  statement: { totals: SphereTotal[]; spheres: boolean };
}): Report {
  const members = report.membersByType.map((row) => ({ ...row }));
  const income = report.incomeByPurpose.filter((row) => row.income !== 0).map((row) => ({ label: row.label, income: row.income }));
  const tables: ReportTable[] = [
    {
      title: `Mitglieder am ${formatDate(report.keyDate)}`,
      columns: [
        { id: "type", header: "Mitgliedsart" },
        { id: "members", header: "Mitglieder", type: "number" },
        { id: "joined", header: "Eingetreten", type: "number" },
        { id: "left", header: "Ausgetreten", type: "number" },
      ],
      rows: members,
      sums: { members: sum(members, "members"), joined: sum(members, "joined"), left: sum(members, "left") },
    },
    {
      title: "Einnahmen nach Art",
      columns: [
        { id: "label", header: "Art" },
        { id: "income", header: "Einnahmen", type: "money" },
      ],
      rows: income,
      sums: { income: sum(income, "income") },
    },
  ];
  if (report.statement.spheres) {
    const rows = report.statement.totals.map((total) => ({
      sphere: sphereLabel(total.sphere),
      income: total.income,
      expense: total.expense,
      result: total.result,
    }));
    tables.push({
      title: "Ergebnis je Sphäre",
      columns: [
        { id: "sphere", header: "Sphäre" },
        { id: "income", header: "Einnahmen", type: "money" },
        { id: "expense", header: "Ausgaben", type: "money" },
        { id: "result", header: "Ergebnis", type: "money" },
      ],
      rows,
      sums: { income: sum(rows, "income"), expense: sum(rows, "expense"), result: sum(rows, "result") },
    });
  }
  return { title: `${REPORT_TITLES.assembly} ${report.year}`, subtitle: `Geschäftsjahr ${report.year}`, tables, notes: [] };
}

const sum = (rows: Record<string, CellValue>[], id: string) => rows.reduce((total, row) => total + Number(row[id] ?? 0), 0);

/** A cell as the screen and the PDF show it. */
export function formatCell(value: CellValue, type: CellType | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  if (type === "money") return formatMoney(Number(value));
  if (type === "date") return formatDate(String(value));
  if (type === "number") return formatNumber(Number(value));
  return String(value);
}

const DOCUMENT = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>{{title}}</title>
<style>body{font-family:Arial,Helvetica,sans-serif;font-size:10pt;color:#1e293b}h1{font-size:15pt;margin:0}p.sub{margin:2pt 0 12pt;color:#475569}
h2{font-size:11pt;margin:14pt 0 4pt}table{width:100%;border-collapse:collapse}th,td{padding:2pt 4pt;border-bottom:0.5pt solid #cbd5e1;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tfoot td{font-weight:bold;border-top:1pt solid #475569}p.note{font-size:8.5pt;color:#475569;margin:3pt 0}</style>
</head><body><h1>{{title}}</h1><p class="sub">{{club}} · {{subtitle}}</p>
{{#tables}}<h2>{{title}}</h2><table><thead><tr>{{#headers}}<th class="{{class}}">{{text}}</th>{{/headers}}</tr></thead><tbody>
{{#rows}}<tr>{{#cells}}<td class="{{class}}">{{text}}</td>{{/cells}}</tr>{{/rows}}</tbody>
{{#footer}}<tfoot><tr>{{#cells}}<td class="{{class}}">{{text}}</td>{{/cells}}</tr></tfoot>{{/footer}}</table>{{/tables}}
{{#notes}}<p class="note">{{.}}</p>{{/notes}}</body></html>`;

/** The report as a self-contained HTML document for the PDF (escaped by mustache). */
export function reportDocument(report: Report, club: string): string {
  const cellClass = (type: CellType | undefined) => (type === "money" || type === "number" ? "n" : "");
  return Mustache.render(DOCUMENT, {
    title: report.title,
    subtitle: report.subtitle,
    club,
    notes: report.notes,
    tables: report.tables.map((table) => ({
      title: table.title,
      headers: table.columns.map((column) => ({ text: column.header, class: cellClass(column.type) })),
      rows: table.rows.map((row) => ({
        cells: table.columns.map((column) => ({ text: formatCell(row[column.id], column.type), class: cellClass(column.type) })),
      })),
      footer: table.sums
        ? [
            {
              cells: table.columns.map((column, index) => ({
                text: column.id in table.sums! ? formatCell(table.sums![column.id], column.type) : index === 0 ? "Summe" : "",
                class: cellClass(column.type),
              })),
            },
          ]
        : [],
    })),
  });
}
