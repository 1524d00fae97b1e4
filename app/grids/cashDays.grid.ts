import { defineGrid } from "~/components/data-grid/declare";
import { cashPeriodOf } from "~/lib/cash-book";
import { todayInBerlin } from "~/lib/format";
import { allCashDays, listCashDays, type CashDayRow } from "~/models/cash-book.server";
import { cashPeriodToggle } from "./cashBook.grid";

const dayQuery = (query: { toggles: Record<string, string>; sort: { id: string; descending: boolean } }) => ({
  period: cashPeriodOf(query.toggles.period),
  sort: query.sort,
  today: todayInBerlin(),
});

/**
 * Tagesabschluss of the Kasse (issue 35 item 2; ADMIN, FINANCE): per day with entries the opening
 * balance, the sums in and out and the closing balance (the figure the Kassensturz of that evening
 * must show).
 */
export const cashDaysGrid = defineGrid<CashDayRow>({
  id: "cashdays",
  entity: null,
  area: "cashbook",
  selectable: false,
  mounts: { PARENT: { title: "Kasse: Tagesabschluss" } },
  columns: [
    { id: "date", header: "Tag", value: (r) => r.date, type: "date" },
    { id: "entries", header: "Buchungen", value: (r) => r.entries, type: "number", sortable: false },
    { id: "opening", header: "Anfangsbestand", value: (r) => r.opening, type: "money", sortable: false },
    { id: "amountIn", header: "Einnahmen", value: (r) => r.amountIn, type: "money", sum: true, sortable: false },
    { id: "amountOut", header: "Ausgaben", value: (r) => r.amountOut, type: "money", sum: true, sortable: false },
    { id: "closing", header: "Endbestand", value: (r) => r.closing, type: "money", sortable: false },
  ],
  toggles: [cashPeriodToggle],
  defaultSort: { id: "date", descending: false },
  dialogs: { add: false, edit: false, delete: false },
  model: {
    list: (db, query) => listCashDays(db, { ...dayQuery(query), page: query.page, pageSize: query.pageSize }),
    all: (db, query) => allCashDays(db, dayQuery(query)),
  },
  excel: { fileName: "Kassenbuch-Tagesabschluss.xlsx", sheet: "Tagesabschluss", path: "/cashbook/days/export" },
  screenLinks: [
    { label: "Kassenbuch", to: "/cashbook", area: "cashbook" },
    { label: "Drucken", to: "/cashbook/print", area: "cashbook" },
  ],
  emptyText: "Keine Kassenbuchungen in diesem Zeitraum",
});
