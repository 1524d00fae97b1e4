import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { cashPeriodOf, CASH_ENTRY_KIND_LABELS } from "~/lib/cash-book";
import { formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { PERIOD_OPTIONS } from "~/lib/periods";
import {
  allCashEntries,
  cashBalance,
  CASH_DEFAULT_SORT,
  cashReversalRefusal,
  listCashEntries,
  pageOfCashEntry,
  type CashEntryRow,
  type CashQuery,
} from "~/models/cash-book.server";

const cashQuery = (query: Pick<ListQuery, "toggles" | "sort" | "search">): CashQuery => ({
  period: cashPeriodOf(query.toggles.period),
  search: query.search || undefined,
  sort: query.sort,
  today: todayInBerlin(),
});

/** 'Storno von K-2026-0003' on a counter-entry, 'storniert durch K-2026-0007' on the entry it undoes. */
const stateOf = (row: CashEntryRow) =>
  row.reversesNumber ? `Storno von ${row.reversesNumber}` : row.reversedByNumber ? `storniert durch ${row.reversedByNumber}` : null;

/** The period toggle of the Kasse's grids (default: this month). */
export const cashPeriodToggle = {
  param: "period",
  label: "Kassenbuch nach Zeitraum filtern",
  options: PERIOD_OPTIONS,
  fallback: "thisMonth",
} as const;

/**
 * Kasse (issue 35 item 2; ADMIN, FINANCE), declared once: the Kassenbuch in its order (date and
 * Belegnummer), each entry with Einnahme or Ausgabe and the Bestand after it. Entries without a
 * person are booked with 'Buchung erfassen'; an entry is never changed: 'Stornieren'
 * writes its counter-entry (a cash payment of the journal is undone as 'Zurückbuchen' does).
 */
export const cashBookGrid = defineGrid<CashEntryRow>({
  id: "cashbook",
  entity: "cashEntry",
  area: "cashbook",
  selectable: false,
  mounts: {
    PARENT: {
      title: "Kasse",
      hint: async (db) => {
        const { balance, lastDate } = await cashBalance(db);
        return `Kassenbestand: ${formatMoney(balance)}${lastDate ? ` (letzte Buchung am ${formatDate(lastDate)})` : ""}. Das Kassenbuch wird in zeitlicher Reihenfolge geführt; ein Fehler wird storniert, nicht geändert.`;
      },
    },
  },
  columns: [
    { id: "date", header: "Datum", value: (r) => r.date, type: "date" },
    { id: "receiptNumber", header: "Beleg", value: (r) => r.receiptNumber, sortable: false },
    { id: "kind", header: "Art", value: (r) => CASH_ENTRY_KIND_LABELS[r.kind], sortable: false },
    { id: "text", header: "Buchungstext", value: (r) => r.text, sortable: false },
    {
      id: "personName",
      header: "Person",
      value: (r) => r.personName,
      link: (r) => (r.personId ? { to: `/people/${r.personId}/payments` } : null),
      sortable: false,
    },
    { id: "amountIn", header: "Einnahme", value: (r) => r.amountIn, type: "money", sum: true, sortable: false },
    { id: "amountOut", header: "Ausgabe", value: (r) => r.amountOut, type: "money", sum: true, sortable: false },
    { id: "balance", header: "Bestand", value: (r) => r.balance, type: "money", sortable: false },
    { id: "state", header: "Storno", value: stateOf, sortable: false },
    { id: "account", header: "Konto", value: (r) => r.account, sortable: false, hidden: true },
    { id: "createdBy", header: "Gebucht von", value: (r) => r.createdBy, sortable: false, hidden: true },
  ],
  toggles: [cashPeriodToggle],
  search: { placeholder: "Text, Beleg oder Person" },
  defaultSort: CASH_DEFAULT_SORT,
  dialogs: { add: true, edit: false, delete: false, addLabel: "Buchung erfassen" },
  model: {
    list: (db, query) => listCashEntries(db, { ...cashQuery(query), page: query.page, pageSize: query.pageSize }),
    all: (db, query) => allCashEntries(db, cashQuery(query)),
    pageOf: (db, id, query) => pageOfCashEntry(db, id, cashQuery(query), query.pageSize),
  },
  excel: { fileName: "Kassenbuch.xlsx", sheet: "Kassenbuch", path: "/cashbook/export" },
  rowActions: [{ label: "Stornieren", view: "reverse", when: (r) => cashReversalRefusal(r) === null }],
  commandColumn: true,
  screenLinks: [
    { label: "Tagesabschluss", to: "/cashbook/days", area: "cashbook" },
    { label: "Drucken", to: "/cashbook/print", area: "cashbook" },
  ],
  emptyText: "Keine Kassenbuchungen in diesem Zeitraum",
});
