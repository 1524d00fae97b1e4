/**
 * A grid's rows, the bulk of every grid page: as React elements for the browser, and as the same
 * HTML built as a string for the server.
 *
 * Why two: React's server renderer spends about 0.2 ms per row of a grid page (measured in
 * docs/benchmarks.md), most of a page's time. The server writes the rows as one string instead;
 * the browser hydrates them with <GridRows>, whose markup is the same to the byte
 * (tests/integration/grid-rows.test.ts compares both over many grids), so React adopts the
 * server's elements as if it had rendered them itself. Clicks on rows and their links are
 * handled by the grid's one listener on the table body (data-grid.tsx), not per element; and
 * styled from it too (ROWS_CLASS): a page repeats its cells' links and row commands hundreds of
 * times, a class on each was a fifth of a grid page's bytes.
 */
import { Fragment, type ReactNode } from "react";
import type { Cell, ColumnMeta, GridRow } from "~/lib/grid";
import { CopyButton } from "../copy-button";

export const alignClass = { left: "text-left", right: "text-right", center: "text-center" } as const;
const groupRowClass = "bg-wuff-50";
const groupCellClass = "px-2 py-1 text-left font-semibold text-wuff-800";
const emptyCellClass = "px-2 py-6 text-center text-slate-500";
const commandCellClass = "text-right print:hidden";
const mutedRowClass = "italic text-slate-500";

/** A row action as a link: a dialog of the app, or a document request (a file, maybe in a new tab). */
export type ActionLink = { label: string; href: string; document?: boolean; newTab?: boolean };

/** Everything the rows show, with the hrefs of the page they are on. */
export type RowsModel = {
  rows: GridRow[];
  /** The shown columns, and where each one's cell is in a row's cells (-1: the row has none). */
  columns: ColumnMeta[];
  cellIndexes: number[];
  /** Per row the group it belongs to; a row starting a group gets the group's heading above it. */
  groups?: (string | null)[] | null;
  selectedId: number | null;
  /** The href being loaded (the row is marked busy meanwhile). */
  pendingHref: string | null;
  /** Where a click on the row leads (selects it), or null when rows are not selected. */
  rowHref: (row: GridRow) => string | null;
  /** The href of one of the page's dialogs. */
  open: (dialog: string, id?: number, params?: Record<string, string>) => string;
  /** The row's actions, shown as buttons in the command column when it has one. */
  actions: ((row: GridRow) => ActionLink[]) | null;
  emptyText: string;
};

const hasLink = (cell: Cell | undefined) => typeof cell === "object" && cell.link !== undefined;
export const cellText = (cell: Cell | undefined) => (cell === undefined || typeof cell === "boolean" ? "" : typeof cell === "string" ? cell : cell.text);

/** Left-aligned cells need no class; others name their alignment; a warning is red and bold. */
const cellClass = (align: ColumnMeta["align"], warn: boolean) =>
  [align === "left" ? "" : alignClass[align], warn ? "font-semibold text-red-700" : ""].filter(Boolean).join(" ") || undefined;

const dialogParams = (params: Record<string, string | number> | undefined) =>
  Object.fromEntries(Object.entries(params ?? {}).map(([key, value]) => [key, String(value)]));

/** What each row shows, computed once for both renderings. */
function rowParts(model: RowsModel, row: GridRow, index: number) {
  const group = model.groups?.[index] ?? null;
  const href = model.rowHref(row);
  const cells = model.cellIndexes.map((cellIndex) => (cellIndex < 0 ? undefined : row.cells[cellIndex]));
  return {
    groupHeader: group !== null && group !== (model.groups?.[index - 1] ?? null) ? group : null,
    href,
    cells,
    // The first cell without a link of its own selects the row (without JavaScript too).
    selectAt: href ? cells.findIndex((cell) => !hasLink(cell)) : -1,
    classes: cells.map((cell, cellIndex) => cellClass(model.columns[cellIndex].align, typeof cell === "object" && cell.warn === true)),
  };
}

const columnCount = (model: RowsModel) => model.columns.length + (model.actions ? 1 : 0);

function Checkbox({ checked }: { checked: boolean }) {
  return <input type="checkbox" checked={checked} readOnly disabled aria-label={checked ? "ja" : "nein"} />;
}

/** A cell's content (a plain function, not a component: a page has over a thousand cells). */
function cellContent(cell: Cell | undefined, open: RowsModel["open"]): ReactNode {
  if (cell === undefined) return null;
  if (typeof cell === "boolean") return <Checkbox checked={cell} />;
  if (typeof cell === "string" || !cell.link) return cellText(cell);
  const link = cell.link;
  if ("dialog" in link) {
    return (
      <a href={open(link.dialog, link.id, dialogParams(link.params))} data-cell-link="dialog">
        {cell.text}
      </a>
    );
  }
  const anchor = (
    <a href={link.to} data-cell-link="true" {...(link.newTab ? { target: "_blank", rel: "noopener" } : {})}>
      {cell.text}
    </a>
  );
  if (!link.copy) return anchor;
  return (
    <span className="inline-flex items-center gap-1">
      {anchor}
      <CopyButton text={link.to} />
    </span>
  );
}

/** A row's action in the command column: a dialog (opened by the grid's listener) or a file. */
function commandAnchor(action: ActionLink): ReactNode {
  return (
    <a
      key={action.label}
      href={action.href}
      data-command={action.document ? "document" : "dialog"}
      {...(action.newTab ? { target: "_blank", rel: "noopener" } : {})}
    >
      {action.label}
    </a>
  );
}

/** The rows as React elements: what the browser renders (and hydrates the server's string as). */
export function GridRows({ model }: { model: RowsModel }) {
  if (model.rows.length === 0) {
    return (
      <tr>
        <td colSpan={columnCount(model)} className={emptyCellClass}>
          {model.emptyText}
        </td>
      </tr>
    );
  }
  return model.rows.map((row, index) => {
    const { groupHeader, href, cells, selectAt, classes } = rowParts(model, row, index);
    return (
      <Fragment key={row.id}>
        {groupHeader !== null && (
          <tr className={groupRowClass}>
            <th colSpan={columnCount(model)} scope="rowgroup" className={groupCellClass}>
              {groupHeader}
            </th>
          </tr>
        )}
        <tr
          aria-selected={href ? row.id === model.selectedId : undefined}
          aria-busy={href !== null && href === model.pendingHref ? true : undefined}
          data-row-id={row.id}
          data-muted={row.muted ? true : undefined}
          className={row.muted ? mutedRowClass : undefined}
        >
          {cells.map((cell, cellIndex) => (
            <td key={model.columns[cellIndex].id} className={classes[cellIndex]}>
              {cellIndex === selectAt ? (
                <a href={href!} className="block">
                  {cellText(cell) || (typeof cell === "boolean" ? <Checkbox checked={cell} /> : "–")}
                </a>
              ) : (
                cellContent(cell, model.open)
              )}
            </td>
          ))}
          {model.actions && <td className={commandCellClass}>{model.actions(row).map(commandAnchor)}</td>}
        </tr>
      </Fragment>
    );
  });
}

// The same rows as a string, as React's server renderer writes them (escaping, attribute order).

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]);

/** An element's start tag; attributes whose value is undefined are left out. */
function startTag(name: string, attributes: [string, string | number | undefined][]): string {
  let tag = `<${name}`;
  for (const [attribute, value] of attributes) if (value !== undefined) tag += ` ${attribute}="${escapeHtml(String(value))}"`;
  return `${tag}>`;
}

const checkboxHtml = (checked: boolean) =>
  `<input type="checkbox" readonly="" disabled="" aria-label="${checked ? "ja" : "nein"}"${checked ? ' checked=""' : ""}/>`;

const newTabAttributes = (newTab: boolean | undefined): [string, string][] =>
  newTab
    ? [
        ["target", "_blank"],
        ["rel", "noopener"],
      ]
    : [];

function cellHtml(cell: Cell | undefined, open: RowsModel["open"]): string {
  if (cell === undefined) return "";
  if (typeof cell === "boolean") return checkboxHtml(cell);
  if (typeof cell === "string" || !cell.link) return escapeHtml(cellText(cell));
  const link = cell.link;
  const text = escapeHtml(cell.text);
  if ("dialog" in link) {
    const href = open(link.dialog, link.id, dialogParams(link.params));
    return `${startTag("a", [
      ["href", href],
      ["data-cell-link", "dialog"],
    ])}${text}</a>`;
  }
  const anchor = `${startTag("a", [["href", link.to], ["data-cell-link", "true"], ...newTabAttributes(link.newTab)])}${text}</a>`;
  // The copy button appears only once JavaScript runs (CopyButton renders nothing before).
  return link.copy ? `<span class="inline-flex items-center gap-1">${anchor}</span>` : anchor;
}

const commandHtml = (action: ActionLink) =>
  `${startTag("a", [
    ["href", action.href],
    ["data-command", action.document ? "document" : "dialog"],
    ...newTabAttributes(action.newTab),
  ])}${escapeHtml(action.label)}</a>`;

/** The rows as HTML, the same as React renders <GridRows> on the server. */
export function gridRowsHtml(model: RowsModel): string {
  if (model.rows.length === 0) {
    return `<tr>${startTag("td", [
      ["colSpan", columnCount(model)],
      ["class", emptyCellClass],
    ])}${escapeHtml(model.emptyText)}</td></tr>`;
  }
  let html = "";
  model.rows.forEach((row, index) => {
    const { groupHeader, href, cells, selectAt, classes } = rowParts(model, row, index);
    if (groupHeader !== null) {
      html += `<tr class="${groupRowClass}">${startTag("th", [
        ["colSpan", columnCount(model)],
        ["scope", "rowgroup"],
        ["class", groupCellClass],
      ])}${escapeHtml(groupHeader)}</th></tr>`;
    }
    html += startTag("tr", [
      ["aria-selected", href ? String(row.id === model.selectedId) : undefined],
      ["aria-busy", href !== null && href === model.pendingHref ? "true" : undefined],
      ["data-row-id", row.id],
      ["data-muted", row.muted ? "true" : undefined],
      ["class", row.muted ? mutedRowClass : undefined],
    ]);
    cells.forEach((cell, cellIndex) => {
      html += startTag("td", [["class", classes[cellIndex]]]);
      if (cellIndex === selectAt) {
        const text = cellText(cell);
        html += `<a href="${escapeHtml(href!)}" class="block">${text ? escapeHtml(text) : typeof cell === "boolean" ? checkboxHtml(cell) : "–"}</a>`;
      } else {
        html += cellHtml(cell, model.open);
      }
      html += "</td>";
    });
    if (model.actions) html += `<td class="${commandCellClass}">${model.actions(row).map(commandHtml).join("")}</td>`;
    html += "</tr>";
  });
  return html;
}
