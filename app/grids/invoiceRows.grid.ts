import { defineGrid, type ListQuery } from "~/components/data-grid/declare";
import { TAX_CASE_SHORT } from "~/lib/tax";
import { INVOICE_ROW_DEFAULT_SORT, listInvoiceRows, pageOfInvoiceRow, type InvoiceRowQuery, type InvoiceRowRow } from "~/models/invoices.server";

const rowQuery = (query: Pick<ListQuery, "parent" | "sort">): InvoiceRowQuery => ({
  invoiceId: query.parent?.type === "INVOICEHEADER" ? query.parent.id : undefined,
  sort: query.sort,
});

/**
 * Rechnungszeilen (spec 001 §2 Invoice rows grid): the rows of the invoice selected on the
 * Rechnungen screen. Toolbar Edit, Delete and the column chooser; a row is added with the
 * invoice's row action 'Zeile hinzufügen' (toolbar, context menu and command column of the
 * invoices grid), as the spec adds rows through the dialog only. The footer sum is the amount.
 */
export const invoiceRowsGrid = defineGrid<InvoiceRowRow>({
  id: "invoiceRows",
  entity: "invoiceRow",
  area: "invoices",
  mounts: {
    // The spec's title, spelled as it gives it.
    INVOICEHEADER: {
      title: (invoice) => `Rechungszeilen für Rechnung ${invoice.name}`,
      prefix: "row",
      hint: "Neue Zeilen: „Zeile hinzufügen“ bei der Rechnung oben.",
    },
  },
  columns: [
    { id: "id", header: "Id", value: (r) => r.id, type: "number", hidden: true },
    { id: "lineNumber", header: "Zeile", value: (r) => r.lineNumber, type: "number", widthRem: 5 },
    { id: "text", header: "Text", value: (r) => r.text },
    { id: "amount", header: "Betrag", value: (r) => r.amount, type: "money", sum: true },
    // The row's own case (what Regelbesteuerung prints; a § 19 club's invoice shows no tax).
    { id: "taxCase", header: "Umsatzsteuer", value: (r) => TAX_CASE_SHORT[r.taxCase], widthRem: 9 },
    { id: "feeId", header: "Posten-Nr", value: (r) => r.feeId, type: "number", hidden: true },
  ],
  defaultSort: INVOICE_ROW_DEFAULT_SORT,
  dialogs: { add: false },
  model: {
    list: (db, query) => listInvoiceRows(db, { ...rowQuery(query), page: query.page, pageSize: query.pageSize }),
    pageOf: (db, id, query) => pageOfInvoiceRow(db, id, rowQuery(query), query.pageSize),
  },
  emptyText: "Keine Rechnungszeilen",
});
