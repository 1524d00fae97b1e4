/**
 * The one grid kit in the browser: renders the GridData a grid's loader made from its declaration
 * (app/grids). The server sorts, filters, pages, sums and formats; the URL holds that state
 * (app/lib/grid-state.ts), so everything here works as plain links and forms without JavaScript.
 * With JavaScript: click selects, double click and Enter open the row, arrow keys move, a right
 * click opens the row's context menu, and the column chooser saves in the background.
 */
import { Form, Link, useFetcher, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { shownColumns, type GridData, type GridRow } from "~/lib/grid";
import { closedHref, closedSearch, dialogHrefs, gridHref, gridParamNames, keepOnly, searchWith } from "~/lib/grid-state";
import { takeClosedDialog } from "../dialog-form";
import { ToggleLinks } from "../toggle-links";
import { isPlainClick, PlainLink, useFollowPlainLinks } from "../plain-links";
import { alignClass, cellText, GridRows, gridRowsHtml, type ActionLink, type RowsModel } from "./rows";
import { formatNumber } from "~/lib/locale";

const buttonClass = "inline-flex items-center rounded border border-slate-300 bg-white px-2.5 py-1 text-sm hover:bg-slate-50";

/** Rows, cells, their links and the rows' commands are styled from the table body, so each of the
 *  many cells carries no classes.
 *  Printed, cells wrap between words so that the columns fit on A4 (an e-mail address anywhere:
 *  breaking every word anywhere would squeeze short columns such as PLZ), and a row is never
 *  split across two sheets. */
const ROWS_CLASS =
  "[&>tr]:border-b [&>tr]:border-slate-100 [&>tr[aria-selected]]:cursor-pointer [&>tr:not([aria-selected=true]):hover]:bg-slate-50 [&>tr[aria-selected=true]]:bg-wuff-100 " +
  "[&>tr[aria-busy=true]]:animate-pulse [&>tr[aria-busy=true]]:bg-wuff-50 " +
  "[&_td]:whitespace-nowrap [&_td]:px-2 [&_td]:py-1 [&_input]:pointer-events-none [&_input]:accent-wuff-700 " +
  "[&_a[data-cell-link]]:text-wuff-700 [&_a[data-cell-link]]:underline " +
  "[&_a[data-command]]:ml-1 [&_a[data-command]]:rounded [&_a[data-command]]:border [&_a[data-command]]:border-slate-300 [&_a[data-command]]:bg-white " +
  "[&_a[data-command]]:px-1.5 [&_a[data-command]]:py-0.5 [&_a[data-command]]:text-xs [&_a[data-command]]:hover:bg-slate-50 " +
  "[&>tr]:break-inside-avoid print:[&_td]:whitespace-normal print:[&_td]:px-0.5 print:[&_td]:py-0.5 print:[&_td]:[overflow-wrap:break-word] print:[&_a[href^=mailto]]:[overflow-wrap:anywhere]";

/**
 * Scrolls the grid's own box (never the page) so the row is visible below the sticky header.
 * Not scrollIntoView: that also moves the browser's starting point for Tab into the grid, and a
 * keyboard user's next Tab would skip the skip link and the toolbar.
 */
function scrollRowIntoBox(box: HTMLElement | null, row: Element | null | undefined) {
  if (!box || !row) return;
  const rowBox = row.getBoundingClientRect();
  const view = box.getBoundingClientRect();
  const header = box.querySelector("thead")?.getBoundingClientRect().height ?? 0;
  if (rowBox.top < view.top + header) box.scrollTop -= view.top + header - rowBox.top;
  else if (rowBox.bottom > view.bottom) box.scrollTop += rowBox.bottom - view.bottom;
}

/** The selected row as a screen reader announces it: its first shown texts. */
const selectedLabel = (row: GridRow, cellIndexes: number[]) =>
  cellIndexes
    .map((index) => cellText(row.cells[index]))
    .filter(Boolean)
    .slice(0, 3)
    .join(", ");

/** The export's address with the grid's own parameters ('?sort=..'), after any it has (?parent=..). */
const withOwnParams = (href: string, own: string) => (own && href.includes("?") ? `${href}&${own.slice(1)}` : `${href}${own}`);

/** The hrefs of a grid on the current page (the page's parameters are read once, not per row). */
function useGridLinks(data: GridData) {
  const { pathname, search } = useLocation();
  // A page has hundreds of these links: the page's search is read once for all of them.
  const closed = closedSearch(search);
  const withSelected = searchWith(closed);
  const dialogHref = dialogHrefs(pathname, closed);
  // Every dialog of a CHILD grid knows the parent it was opened under (dialogParams).
  const open = (dialog: string, id?: number, params: Record<string, string> = {}) =>
    dialogHref(dialog, { ...data.dialogParams, ...(id !== undefined ? { dialogId: id } : {}), ...params });
  const selection = data.selection;
  // Another row of a parent grid: only the grid's own state is kept, the tabs start over.
  const kept = keepOnly(search, data.ownParams);
  const selectedParam = gridParamNames(data.prefix).selected;
  const rowHref = (row: GridRow): string | null =>
    selection.kind === "segment"
      ? `${selection.base}/${row.id}/${selection.tab}${kept}`
      : selection.kind === "param"
        ? `${pathname}${withSelected({ [selectedParam]: String(row.id) })}`
        : null;
  return { pathname, search, open, rowHref, openHref: (row: GridRow) => (data.openDialog ? open(data.openDialog, row.id) : null) };
}

/** A link of a row action: the app's own navigation for dialogs, a plain link for a file. */
function ActionAnchor({
  action,
  className,
  onClick,
  ...props
}: {
  action: ActionLink;
  className: string;
  onClick?: () => void;
  role?: string;
  "data-command"?: boolean;
}) {
  if (action.document) {
    return (
      <a href={action.href} className={className} onClick={onClick} {...(action.newTab ? { target: "_blank", rel: "noopener" } : {})} {...props}>
        {action.label}
      </a>
    );
  }
  return (
    <Link to={action.href} preventScrollReset className={className} onClick={onClick} {...props}>
      {action.label}
    </Link>
  );
}

/** A menu of the row's actions at the pointer (right click, or the context-menu key). */
function ContextMenu({ at, items, onClose }: { at: { x: number; y: number }; items: ActionLink[]; onClose: () => void }) {
  const menu = useRef<HTMLDivElement>(null);
  // Kept inside the window: a row near the bottom or the right edge opens the menu above or left of the pointer.
  const [place, setPlace] = useState(at);
  useLayoutEffect(() => {
    const box = menu.current?.getBoundingClientRect();
    if (!box) return;
    setPlace({ x: Math.max(0, Math.min(at.x, window.innerWidth - box.width - 4)), y: Math.max(0, Math.min(at.y, window.innerHeight - box.height - 4)) });
  }, [at]);
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>("a")?.focus();
    const close = (event: Event) => {
      if (!(event instanceof KeyboardEvent) || event.key === "Escape") onClose();
    };
    window.addEventListener("pointerdown", close);
    window.addEventListener("keydown", close as (event: Event) => void);
    return () => {
      window.removeEventListener("pointerdown", close);
      window.removeEventListener("keydown", close as (event: Event) => void);
    };
  }, [onClose]);
  return (
    <div
      ref={menu}
      role="menu"
      className="fixed z-40 min-w-44 rounded border border-slate-200 bg-white py-1 text-sm shadow-lg"
      style={{ left: place.x, top: place.y }}
      onPointerDown={(event) => event.stopPropagation()}
    >
      {items.map((item) => (
        <ActionAnchor
          key={item.label}
          action={item}
          role="menuitem"
          onClick={onClose}
          className="block px-3 py-1.5 hover:bg-wuff-50 focus:bg-wuff-50 focus:outline-none"
        />
      ))}
    </div>
  );
}

export function DataGrid({ data }: { data: GridData }) {
  const { title, columns, rows, total, sums, page, pageSize, sort, selectedId, prefix, groups } = data;
  const links = useGridLinks(data);
  const { pathname, search, open, rowHref, openHref } = links;
  const navigate = useNavigate();
  const chooser = useFetcher<{ ok: boolean }>({ key: `columns-${data.gridId}` });
  const body = useRef<HTMLTableSectionElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; row: GridRow } | null>(null);
  const names = gridParamNames(prefix);

  // While the chooser saves in the background, show its choice at once.
  const pendingChoice = chooser.formData?.getAll("visible").map(String);
  const visible = pendingChoice ?? data.visible;

  // The column model is the chooser's choice in its order; the rows' cells are read by position.
  const visibleColumns = shownColumns(columns, visible);
  const cellIndexes = visibleColumns.map((column) => data.visible.indexOf(column.id));
  const hasSums = visibleColumns.some((column) => column.sum);
  // A row's actions: its own when they depend on the row, else the grid's.
  const actionsOf = (row: GridRow): ActionLink[] =>
    (row.actions ?? data.rowActions).map((action) =>
      "dialog" in action
        ? { label: action.label, href: open(action.dialog, row.id, action.params) }
        : { label: action.label, href: action.href, document: true, newTab: action.newTab },
    );
  const hasCommands = data.commandColumn && (data.rowActions.length > 0 || rows.some((row) => (row.actions?.length ?? 0) > 0));

  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const firstShown = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const lastShown = Math.min(total, page * pageSize);
  const sortHref = (id: string) => gridHref(pathname, search, prefix, { sort: sort.id === id && !sort.descending ? `-${id}` : id });
  const pageHref = (target: number) => gridHref(pathname, search, prefix, { page: target });
  // Sorting replaces the page in the history (a view of the same list); neither moves the page.
  const followSort = useFollowPlainLinks({ preventScrollReset: true, replace: true });
  const followPage = useFollowPlainLinks({ preventScrollReset: true });

  // The row whose page is loading (clicked, or moved to with the arrow keys) is marked meanwhile.
  const loading = useNavigation().location;
  const pendingHref = loading ? `${loading.pathname}${loading.search}` : null;
  const rowsModel: RowsModel = {
    rows,
    columns: visibleColumns,
    cellIndexes,
    groups,
    selectedId,
    pendingHref,
    rowHref,
    open,
    actions: hasCommands ? actionsOf : null,
    emptyText: data.emptyText,
  };

  const selectedIndex = rows.findIndex((row) => row.id === selectedId);
  const selected = selectedIndex >= 0 ? rows[selectedIndex] : null;
  // After a dialog of this grid's entity closed (Abbruch, Escape, Speichern), the focus is back on the grid.
  const locationKey = useLocation().key;
  useEffect(() => {
    if (takeClosedDialog(data.entity)) body.current?.focus({ preventScroll: true });
  }, [locationKey, data.entity]);

  useEffect(() => {
    // Keep the selected row in view (spec: scroll-to-row after loading, 100 ms).
    const timer = setTimeout(() => scrollRowIntoBox(scroller.current, body.current?.querySelector("[aria-selected='true']")), 100);
    return () => clearTimeout(timer);
  }, [selectedId]);

  const rowOf = (target: EventTarget) => {
    const id = (target as HTMLElement).closest<HTMLElement>("tr[data-row-id]")?.dataset.rowId;
    return rows.find((row) => String(row.id) === id) ?? null;
  };
  const go = (href: string | null, replace = false) => href && navigate(href, { preventScrollReset: true, replace });
  // One listener for all rows: a click selects (the first cell is the link without JavaScript).
  const onClick = (event: MouseEvent<HTMLTableSectionElement>) => {
    const target = event.target as HTMLElement;
    if (!isPlainClick(event)) return;
    // A cell's or a command's dialog link opens the dialog within the app (plain links: cheaper than components).
    const dialogLink = target.closest<HTMLAnchorElement>("a[data-cell-link='dialog'], a[data-command='dialog']");
    if (dialogLink) {
      event.preventDefault();
      go(dialogLink.getAttribute("href"));
      return;
    }
    if (target.closest("[data-cell-link], [data-command]")) return;
    const row = rowOf(target);
    if (!row) return;
    event.preventDefault();
    if (row.id !== selectedId) go(rowHref(row), true);
  };
  const onDoubleClick = (event: MouseEvent<HTMLTableSectionElement>) => {
    const row = rowOf(event.target);
    if (row) go(openHref(row));
  };
  const rowMenu = (row: GridRow): ActionLink[] => [
    ...(data.openDialog && data.editButton ? [{ label: "Bearbeiten", href: open(data.openDialog, row.id) }] : []),
    ...(data.deleteDialog ? [{ label: "Löschen", href: open(data.deleteDialog, row.id) }] : []),
    ...actionsOf(row),
  ];
  const onContextMenu = (event: MouseEvent<HTMLTableSectionElement>) => {
    const row = rowOf(event.target);
    if (!row || rowMenu(row).length === 0) return;
    event.preventDefault();
    if (row.id !== selectedId) go(rowHref(row), true);
    setMenu({ x: event.clientX, y: event.clientY, row });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const move = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
    if (move !== 0) {
      const next = rows[Math.min(rows.length - 1, Math.max(0, selectedIndex + move))];
      if (next && next.id !== selectedId) go(rowHref(next), true);
      event.preventDefault();
    } else if (event.key === "Enter" && selected) {
      go(openHref(selected));
      event.preventDefault();
    } else if (event.key === "ContextMenu" && selected) {
      const box = body.current?.querySelector("[aria-selected='true']")?.getBoundingClientRect();
      if (box && rowMenu(selected).length > 0) setMenu({ x: box.left + 24, y: box.bottom, row: selected });
      event.preventDefault();
    }
  };

  const Heading = data.level === 1 ? "h1" : "h2";
  const searchKeep = [...closedSearch(search)].filter(([name]) => name !== names.search && name !== names.page && name !== names.selected);

  return (
    <section className="flex min-h-0 flex-col gap-2" aria-label={title}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Heading className="text-lg font-semibold text-wuff-800">
          {title} <span className="font-normal text-slate-500">({formatNumber(total)})</span>
        </Heading>
        {data.toggles.map((toggle) => (
          <ToggleLinks
            key={toggle.param}
            label={toggle.label}
            options={toggle.options}
            active={toggle.active}
            hrefOf={(value) => gridHref(pathname, search, prefix, { toggle: [toggle.param, value === toggle.fallback ? null : value] })}
            replace
          />
        ))}
        {data.search && (
          <Form
            method="get"
            action={pathname}
            preventScrollReset
            replace
            role="search"
            aria-label={`${title} durchsuchen`}
            className="flex items-center gap-1 print:hidden"
          >
            {searchKeep.map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <input
              type="search"
              name={names.search}
              defaultValue={data.search.value}
              placeholder={data.search.placeholder}
              aria-label="Suchen"
              maxLength={20}
              className="w-40 rounded border border-slate-300 px-2 py-1 text-sm"
            />
            <button type="submit" className={buttonClass}>
              Suchen
            </button>
          </Form>
        )}
        {data.search?.value && <span className="hidden text-sm print:inline">Suche: „{data.search.value}“</span>}
        <div className="ml-auto flex flex-wrap items-center gap-1.5 print:hidden" role="toolbar" aria-label={`${title}: Aktionen`}>
          {data.addDialog && (
            <Link to={open(data.addDialog)} preventScrollReset className={buttonClass}>
              {data.addLabel}
            </Link>
          )}
          {selected && data.editButton && data.openDialog && (
            <Link to={open(data.openDialog, selected.id)} preventScrollReset className={buttonClass}>
              Bearbeiten
            </Link>
          )}
          {selected && data.deleteDialog && (
            <Link to={open(data.deleteDialog, selected.id)} preventScrollReset className={buttonClass}>
              Löschen
            </Link>
          )}
          {selected && actionsOf(selected).map((action) => <ActionAnchor key={action.label} action={action} className={buttonClass} />)}
          {data.screenLinks.map((link) => (
            <Link key={link.to} to={link.to} className={buttonClass}>
              {link.label}
            </Link>
          ))}
          {data.excelHref && (
            <a href={withOwnParams(data.excelHref, keepOnly(search, data.ownParams))} className={buttonClass} download>
              Excel-Export
            </a>
          )}
          {data.columnChooser && <ColumnChooser data={data} visible={visible} chooser={chooser} />}
          {data.refresh && (
            <Link to={closedHref(pathname, search)} preventScrollReset className={buttonClass}>
              Aktualisieren
            </Link>
          )}
        </div>
      </div>

      {data.hint && <p className="text-sm text-slate-600 print:hidden">{data.hint}</p>}
      {/* Screen readers hear which row is selected now (arrow keys, clicks). */}
      {data.selection.kind !== "none" && (
        <p className="sr-only" aria-live="polite">
          {selected ? `Ausgewählt: ${selectedLabel(selected, cellIndexes)}` : ""}
        </p>
      )}
      {/* Printed, the whole page of rows: no scroll box (the important beats the inline height). */}
      {/* Rows that cannot be selected take no focus themselves: the scroll box does, so the
          keyboard can scroll it (a grid with nothing else focusable, e.g. the history of runs). */}
      <div
        ref={scroller}
        tabIndex={data.selection.kind === "none" ? 0 : undefined}
        className="min-h-0 overflow-auto rounded border border-slate-200 bg-white outline-none focus-visible:ring-2 focus-visible:ring-wuff-500 print:max-h-none! print:overflow-visible print:border-0"
        style={{ maxHeight: data.maxHeight }}
      >
        <table className="w-full border-collapse text-sm print:text-[8pt] print:wrap-anywhere">
          <thead onClick={followSort} className="sticky top-0 z-10 bg-slate-100 print:static">
            <tr>
              {visibleColumns.map((column) => {
                const sorted = sort.id === column.id ? (sort.descending ? "descending" : "ascending") : "none";
                const label = column.header;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    aria-sort={sorted}
                    className={`whitespace-nowrap border-b border-slate-200 px-2 py-1.5 font-semibold print:whitespace-normal print:px-0.5 ${alignClass[column.align]}`}
                    style={column.widthRem ? { width: `${column.widthRem}rem` } : undefined}
                  >
                    {column.sortable ? (
                      <PlainLink to={sortHref(column.id)} className="hover:underline">
                        {label}
                        {sorted !== "none" && <span aria-hidden>{sorted === "ascending" ? " ▲" : " ▼"}</span>}
                      </PlainLink>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
              {hasCommands && (
                <th scope="col" className="border-b border-slate-200 px-2 py-1.5 print:hidden">
                  <span className="sr-only">Aktionen</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody
            ref={body}
            tabIndex={data.selection.kind === "none" ? undefined : 0}
            onClick={onClick}
            onDoubleClick={onDoubleClick}
            onContextMenu={onContextMenu}
            onKeyDown={onKeyDown}
            className={`${ROWS_CLASS} outline-none focus-visible:ring-2 focus-visible:ring-wuff-500`}
            // The server writes the rows as a string (rows.tsx: React's server renderer is the page's cost).
            {...(import.meta.env.SSR ? { dangerouslySetInnerHTML: { __html: gridRowsHtml(rowsModel) } } : { children: <GridRows model={rowsModel} /> })}
          />
          {hasSums && (
            <tfoot className="sticky bottom-0 bg-slate-100 font-semibold print:static">
              <tr>
                {visibleColumns.map((column, index) => (
                  <td key={column.id} className={`px-2 py-1.5 ${alignClass[column.align]}`}>
                    {column.sum ? sums[column.id] : index === 0 ? "Summe" : ""}
                  </td>
                ))}
                {hasCommands && <td className="print:hidden" />}
              </tr>
            </tfoot>
          )}
        </table>
      </div>

      {total > pageSize && (
        <nav onClick={followPage} className="flex items-center gap-3 text-sm text-slate-600" aria-label={`${title}: Seiten`}>
          <span>
            Zeilen {formatNumber(firstShown)}–{formatNumber(lastShown)} von {formatNumber(total)}
          </span>
          {page > 1 && (
            <PlainLink to={pageHref(page - 1)} className={`${buttonClass} print:hidden`}>
              ‹ Zurück
            </PlainLink>
          )}
          <span>
            Seite {page} von {pageCount}
          </span>
          {page < pageCount && (
            <PlainLink to={pageHref(page + 1)} className={`${buttonClass} print:hidden`}>
              Weiter ›
            </PlainLink>
          )}
        </nav>
      )}
      {menu && <ContextMenu at={menu} items={rowMenu(menu.row)} onClose={() => setMenu(null)} />}
    </section>
  );
}

function ColumnChooser({ data, visible, chooser }: { data: GridData; visible: string[]; chooser: ReturnType<typeof useFetcher<{ ok: boolean }>> }) {
  const { pathname, search } = useLocation();
  return (
    <details className="relative">
      <summary className={`${buttonClass} cursor-pointer list-none`}>Spalten</summary>
      <chooser.Form
        method="post"
        action="/preferences/columns"
        className="absolute right-0 z-30 mt-1 max-h-[60vh] w-64 overflow-y-auto rounded border border-slate-200 bg-white p-3 shadow-lg"
        onChange={(event) => chooser.submit(event.currentTarget)}
        aria-label="Spaltenauswahl"
      >
        <input type="hidden" name="grid" value={data.gridId} />
        {/* Without JavaScript the browser comes back to this page after saving. */}
        <noscript>
          <input type="hidden" name="redirectTo" value={pathname + search} />
        </noscript>
        <fieldset>
          <legend className="mb-2 text-sm font-semibold">Sichtbare Spalten</legend>
          {data.columns.map((column) => (
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
  );
}

/** A placeholder for a tab a later capability fills. */
export function PendingPane({ title }: { title: string }): ReactNode {
  return (
    <section>
      <h2 className="text-lg font-semibold text-wuff-800">{title}</h2>
      <p className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">Diese Ansicht ist noch in Arbeit</p>
    </section>
  );
}
