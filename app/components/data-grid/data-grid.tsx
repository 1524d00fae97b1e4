/**
 * The one grid kit. The server sorts, filters, pages and sums; the URL holds that state, and the
 * selected row is the route's path segment, so everything here works as plain links and forms
 * without JavaScript. With JavaScript: double click edits, arrow keys move the selection, Enter
 * edits, and the column chooser saves in the background.
 */
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { Link, useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { Fragment, useEffect, useMemo, useRef, type KeyboardEvent, type ReactNode } from "react";
import { formatDate, formatDateTime, formatDateTimeWithSeconds, formatDateTimeWithWeekday, formatMoney } from "~/lib/format";
import { gridParams, withSearch, type CellValue, type GridColumn, type SortSpec } from "~/lib/grid";

type RowWithId = { id: number | string };

export type GridToolbar = {
  addHref?: string;
  addLabel?: string;
  /** Present only while a row is selected (spec: Edit and Delete need a selection). */
  editHref?: string | null;
  deleteHref?: string | null;
  excelHref?: string;
  columnChooser?: boolean;
  refresh?: boolean;
  /** Further actions on the selected row (e.g. Wiederherstellen); shown while href is set. */
  rowActions?: { label: string; href: string | null }[];
};

export type DataGridProps<Row extends RowWithId> = {
  /** Key of the user's column choice, e.g. 'people'. */
  gridId: string;
  title: string;
  columns: GridColumn<Row>[];
  visible: string[];
  rows: Row[];
  total: number;
  sums?: Partial<Record<string, number>>;
  page: number;
  pageSize: number;
  sort: SortSpec;
  selectedId?: Row["id"] | null;
  /** Selecting a row: the URL of the row's segment (search kept). */
  rowHref?: (row: Row) => string;
  /** Double click and Enter: the edit dialog of the row. */
  editHref?: (row: Row) => string;
  toolbar?: GridToolbar;
  /** Toggle groups above the grid (Alle / Nur Mitglieder / ...). */
  toggles?: ReactNode;
  /** Rows with the same group label are shown under one group header (server sorts by it). */
  groupBy?: (row: Row) => string;
  emptyText?: string;
  /** Height of the scrolling area (CSS), e.g. 'calc(70vh - 200px)'. */
  maxHeight?: string;
  /** A child grid's URL parameter prefix ('dog' -> dogSort, dogPage). */
  paramPrefix?: string;
};

function renderValue<Row>(column: GridColumn<Row>, value: CellValue): ReactNode {
  if (value === null || value === undefined || value === "") return column.type === "checkbox" ? <Checkbox checked={false} /> : "";
  switch (column.type) {
    case "date":
      return formatDate(String(value));
    case "dateTime":
      return formatDateTime(String(value));
    case "dateTimeWeekday":
      return formatDateTimeWithWeekday(String(value));
    case "dateTimeSeconds":
      return formatDateTimeWithSeconds(String(value));
    case "money":
      return formatMoney(Number(value));
    case "number":
      return Number(value).toLocaleString("de-DE");
    case "checkbox":
      return <Checkbox checked={Boolean(value)} />;
    default:
      return String(value);
  }
}

function Checkbox({ checked }: { checked: boolean }) {
  return <input type="checkbox" checked={checked} readOnly disabled className="pointer-events-none accent-wuff-700" aria-label={checked ? "ja" : "nein"} />;
}

const alignment = <Row,>(column: GridColumn<Row>) =>
  column.align ?? (column.type === "money" || column.type === "number" ? "right" : column.type === "checkbox" ? "center" : "left");
const alignClass = { left: "text-left", right: "text-right", center: "text-center" } as const;

const buttonClass = "inline-flex items-center rounded border border-slate-300 bg-white px-2.5 py-1 text-sm hover:bg-slate-50";

export function DataGrid<Row extends RowWithId>(props: DataGridProps<Row>) {
  const { gridId, title, columns, rows, total, sums, page, pageSize, sort, selectedId, rowHref, editHref, toolbar, toggles, groupBy } = props;
  const location = useLocation();
  const navigate = useNavigate();
  const chooser = useFetcher<{ ok: boolean }>({ key: `columns-${gridId}` });
  const body = useRef<HTMLTableSectionElement>(null);

  // While the chooser saves in the background, show its choice at once.
  const pendingChoice = chooser.formData?.getAll("visible").map(String);
  const visible = pendingChoice ?? props.visible;

  const tableColumns = useMemo<ColumnDef<Row>[]>(
    () =>
      columns.map((column) => ({
        id: column.id,
        header: column.header,
        accessorFn: (row: Row) => column.value(row),
        meta: column,
      })),
    [columns],
  );
  const columnVisibility = Object.fromEntries(columns.map((column) => [column.id, visible.includes(column.id)]));
  const table = useReactTable({
    data: rows,
    columns: tableColumns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.id),
    manualSorting: true,
    manualPagination: true,
    state: { columnVisibility, columnOrder: [...visible, ...columns.map((column) => column.id).filter((id) => !visible.includes(id))] },
  });

  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const firstShown = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const lastShown = Math.min(total, page * pageSize);
  const search = new URLSearchParams(location.search);
  const names = gridParams(props.paramPrefix);
  const sortHref = (id: string) =>
    `${location.pathname}${withSearch(search, { [names.sort]: sort.id === id && !sort.descending ? `-${id}` : id, [names.page]: null })}`;
  const pageHref = (target: number) => `${location.pathname}${withSearch(search, { [names.page]: target === 1 ? null : target })}`;

  const selectedIndex = rows.findIndex((row) => row.id === selectedId);
  useEffect(() => {
    // Keep the selected row in view (spec: scroll-to-row after loading).
    const timer = setTimeout(() => body.current?.querySelector("[aria-selected='true']")?.scrollIntoView({ block: "nearest" }), 100);
    return () => clearTimeout(timer);
  }, [selectedId]);

  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    if (!rowHref) return;
    const move = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
    if (move !== 0) {
      const next = rows[Math.min(rows.length - 1, Math.max(0, selectedIndex + move))];
      if (next && next.id !== selectedId) navigate(rowHref(next), { preventScrollReset: true, replace: true });
      event.preventDefault();
    } else if (event.key === "Enter" && editHref && selectedIndex >= 0) {
      navigate(editHref(rows[selectedIndex]), { preventScrollReset: true });
      event.preventDefault();
    }
  };

  const visibleColumns = table.getVisibleLeafColumns().map((column) => column.columnDef.meta as GridColumn<Row>);
  const hasSums = visibleColumns.some((column) => column.sum);
  let previousGroup: string | null = null;

  return (
    <section className="flex min-h-0 flex-col gap-2" aria-label={title}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h2 className="text-lg font-semibold text-wuff-800">
          {title} <span className="font-normal text-slate-500">({total.toLocaleString("de-DE")})</span>
        </h2>
        {toggles}
        {toolbar && (
          <div className="ml-auto flex flex-wrap items-center gap-1.5" role="toolbar" aria-label={`${title}: Aktionen`}>
            {toolbar.addHref && (
              <Link to={toolbar.addHref} preventScrollReset className={buttonClass}>
                {toolbar.addLabel ?? "Hinzufügen"}
              </Link>
            )}
            {toolbar.editHref && (
              <Link to={toolbar.editHref} preventScrollReset className={buttonClass}>
                Bearbeiten
              </Link>
            )}
            {toolbar.deleteHref && (
              <Link to={toolbar.deleteHref} preventScrollReset className={buttonClass}>
                Löschen
              </Link>
            )}
            {toolbar.rowActions?.map(
              (action) =>
                action.href && (
                  <Link key={action.label} to={action.href} preventScrollReset className={buttonClass}>
                    {action.label}
                  </Link>
                ),
            )}
            {toolbar.excelHref && (
              <a href={toolbar.excelHref} className={buttonClass} download>
                Excel-Export
              </a>
            )}
            {toolbar.columnChooser && (
              <details className="relative">
                <summary className={`${buttonClass} cursor-pointer list-none`}>Spalten</summary>
                <chooser.Form
                  method="post"
                  action="/preferences/columns"
                  className="absolute right-0 z-30 mt-1 max-h-[60vh] w-64 overflow-y-auto rounded border border-slate-200 bg-white p-3 shadow-lg"
                  onChange={(event) => chooser.submit(event.currentTarget)}
                  aria-label="Spaltenauswahl"
                >
                  <input type="hidden" name="grid" value={gridId} />
                  {/* Without JavaScript the browser comes back to this page after saving. */}
                  <noscript>
                    <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
                  </noscript>
                  <fieldset>
                    <legend className="mb-2 text-sm font-semibold">Sichtbare Spalten</legend>
                    {columns.map((column) => (
                      <label key={column.id} className="flex items-center gap-2 py-0.5 text-sm">
                        <input type="checkbox" name="visible" value={column.id} defaultChecked={visible.includes(column.id)} />
                        {column.header}
                      </label>
                    ))}
                  </fieldset>
                  <noscript>
                    <button type="submit" className={`${buttonClass} mt-2`}>
                      Übernehmen
                    </button>
                  </noscript>
                </chooser.Form>
              </details>
            )}
            {toolbar.refresh && (
              <Link to={location.pathname + location.search} preventScrollReset className={buttonClass}>
                Aktualisieren
              </Link>
            )}
          </div>
        )}
      </div>

      <div className="min-h-0 overflow-auto rounded border border-slate-200 bg-white" style={{ maxHeight: props.maxHeight }}>
        <table className="w-full border-collapse text-sm">
          <thead className="sticky top-0 z-10 bg-slate-100">
            {table.getHeaderGroups().map((headerGroup) => (
              <tr key={headerGroup.id}>
                {headerGroup.headers.map((header) => {
                  const column = header.column.columnDef.meta as GridColumn<Row>;
                  const sorted = sort.id === column.id ? (sort.descending ? "descending" : "ascending") : "none";
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={sorted}
                      className={`whitespace-nowrap border-b border-slate-200 px-2 py-1.5 font-semibold ${alignClass[alignment(column)]}`}
                      style={column.widthRem ? { width: `${column.widthRem}rem` } : undefined}
                    >
                      {column.sortable === false ? (
                        flexRender(header.column.columnDef.header, header.getContext())
                      ) : (
                        <Link to={sortHref(column.id)} preventScrollReset replace className="hover:underline">
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          {sorted !== "none" && <span aria-hidden>{sorted === "ascending" ? " ▲" : " ▼"}</span>}
                        </Link>
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody ref={body} tabIndex={rowHref ? 0 : undefined} onKeyDown={onKeyDown} className="outline-none focus-visible:ring-2 focus-visible:ring-wuff-500">
            {table.getRowModel().rows.length === 0 && (
              <tr>
                <td colSpan={visibleColumns.length} className="px-2 py-6 text-center text-slate-500">
                  {props.emptyText ?? "Keine Einträge"}
                </td>
              </tr>
            )}
            {table.getRowModel().rows.map((row) => {
              const selected = row.original.id === selectedId;
              const group = groupBy?.(row.original) ?? null;
              const groupHeader = group !== null && group !== previousGroup;
              previousGroup = group;
              const href = rowHref?.(row.original);
              return (
                <Fragment key={row.id}>
                  {groupHeader && (
                    <tr className="bg-wuff-50">
                      <th colSpan={visibleColumns.length} scope="rowgroup" className="px-2 py-1 text-left font-semibold text-wuff-800">
                        {group}
                      </th>
                    </tr>
                  )}
                  <tr
                    aria-selected={selected}
                    data-row-id={row.id}
                    className={`border-b border-slate-100 ${selected ? "bg-wuff-100" : "hover:bg-slate-50"} ${href ? "cursor-pointer" : ""}`}
                    onClick={href ? () => navigate(href, { preventScrollReset: true, replace: true }) : undefined}
                    onDoubleClick={editHref ? () => navigate(editHref(row.original), { preventScrollReset: true }) : undefined}
                  >
                    {row.getVisibleCells().map((cell, index) => {
                      const column = cell.column.columnDef.meta as GridColumn<Row>;
                      const value = cell.getValue() as CellValue;
                      const link = column.href?.(row.original, search);
                      const content = renderValue(column, value);
                      return (
                        <td
                          key={cell.id}
                          className={`whitespace-nowrap px-2 py-1 ${alignClass[alignment(column)]} ${column.warn?.(row.original) ? "font-semibold text-red-600" : ""}`}
                        >
                          {link ? (
                            <Link to={link} preventScrollReset className="text-wuff-700 underline" onClick={(event) => event.stopPropagation()}>
                              {content}
                            </Link>
                          ) : index === 0 && href ? (
                            // The first cell selects the row without JavaScript too.
                            <Link to={href} preventScrollReset replace className="block" onClick={(event) => event.preventDefault()}>
                              {content === "" ? "–" : content}
                            </Link>
                          ) : (
                            content
                          )}
                        </td>
                      );
                    })}
                  </tr>
                </Fragment>
              );
            })}
          </tbody>
          {hasSums && (
            <tfoot className="sticky bottom-0 bg-slate-100 font-semibold">
              <tr>
                {visibleColumns.map((column, index) => (
                  <td key={column.id} className={`px-2 py-1.5 ${alignClass[alignment(column)]}`}>
                    {column.sum ? renderValue(column, sums?.[column.id] ?? 0) : index === 0 ? "Summe" : ""}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      </div>

      {total > pageSize && (
        <nav className="flex items-center gap-3 text-sm text-slate-600" aria-label={`${title}: Seiten`}>
          <span>
            Zeilen {firstShown.toLocaleString("de-DE")}–{lastShown.toLocaleString("de-DE")} von {total.toLocaleString("de-DE")}
          </span>
          {page > 1 && (
            <Link to={pageHref(page - 1)} preventScrollReset className={buttonClass}>
              ‹ Zurück
            </Link>
          )}
          <span>
            Seite {page} von {pageCount}
          </span>
          {page < pageCount && (
            <Link to={pageHref(page + 1)} preventScrollReset className={buttonClass}>
              Weiter ›
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

/** A toggle group (Alle / Nur Mitglieder / ...) as links, the active one marked. */
export function ToggleGroup({ label, options }: { label: string; options: { label: string; href: string; active: boolean }[] }) {
  return (
    <div role="group" aria-label={label} className="inline-flex overflow-hidden rounded border border-slate-300 text-sm">
      {options.map((option) => (
        <Link
          key={option.label}
          to={option.href}
          preventScrollReset
          replace
          aria-current={option.active ? "true" : undefined}
          className={`px-2.5 py-1 ${option.active ? "bg-wuff-700 text-white" : "bg-white hover:bg-slate-50"}`}
        >
          {option.label}
        </Link>
      ))}
    </div>
  );
}
