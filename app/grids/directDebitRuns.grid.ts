import { defineGrid } from "~/components/data-grid/declare";
import { formatDateTime } from "~/lib/format";
import { DIRECT_DEBIT_STATUS_LABELS } from "~/lib/labels";
import { pageOfDirectDebitRuns, type DirectDebitRunRow } from "~/models/direct-debits.server";

/** 'vorbereitet', or when and by whom it was handed to the bank or cancelled. */
function statusText(run: DirectDebitRunRow): string {
  const label = DIRECT_DEBIT_STATUS_LABELS[run.status];
  if (run.status === "SUBMITTED" && run.submittedOn) return `${label} (${formatDateTime(run.submittedOn)}, ${run.submittedBy})`;
  if (run.status === "CANCELLED" && run.cancelledOn) return `${label} (${formatDateTime(run.cancelledOn)}, ${run.cancelledBy})`;
  return label;
}

/**
 * Bisherige Läufe (Lastschriftläufe, ADMIN and FINANCE): every direct-debit run, newest first,
 * with its pain.008 file, its pre-notifications to post, 'An die Bank übergeben' (once the file is there) and 'Lauf stornieren'
 * (once the run is finished), until it is handed over or cancelled (app/dialogs/directDebit).
 */
export const directDebitRunsGrid = defineGrid<DirectDebitRunRow>({
  id: "directDebitRuns",
  entity: null,
  area: "directdebits",
  selectable: false,
  mounts: { PARENT: { title: "Bisherige Läufe" } },
  columns: [
    { id: "id", header: "Lauf", value: (r) => r.id, display: (r) => `Lauf ${r.id}`, sortable: false, widthRem: 5 },
    { id: "createdOn", header: "Erstellt", value: (r) => r.createdOn, type: "dateTime", sortable: false },
    { id: "createdBy", header: "Von", value: (r) => r.createdBy, sortable: false },
    { id: "transactions", header: "Lastschriften", value: (r) => r.transactions, type: "number", sortable: false },
    { id: "fees", header: "Posten", value: (r) => r.fees, type: "number", sortable: false },
    { id: "total", header: "Summe", value: (r) => r.total, type: "money", sortable: false },
    // Eingereicht until the bank statement books the credit (or, if chosen, 2 business days after collection).
    { id: "paid", header: "Davon bezahlt", value: (r) => r.paid, type: "money", sortable: false },
    { id: "status", header: "Status", value: statusText, sortable: false },
  ],
  defaultSort: { id: "id", descending: true },
  model: { list: (db, query) => pageOfDirectDebitRuns(db, query.page, query.pageSize) },
  dialogs: { add: false, edit: false, delete: false },
  rowActions: [
    // A cancelled run's file must not reach the bank.
    { label: "Datei herunterladen", href: (r) => `/directdebits/file/${r.id}`, when: (r) => Boolean(r.fileKey) && r.status !== "CANCELLED" },
    // The pre-notifications that go by post (no e-mail address, or the mail failed).
    { label: "Vorabankündigungen drucken", href: (r) => `/directdebits/letters/${r.id}`, when: (r) => r.letters > 0 && r.finished },
    { label: "An die Bank übergeben …", view: "submit", entity: "directDebit", when: (r) => Boolean(r.fileKey) && r.status === "PREPARED" },
    { label: "Lauf stornieren …", view: "cancel", entity: "directDebit", when: (r) => r.finished && r.status === "PREPARED" },
  ],
  commandColumn: true,
  emptyText: "Noch keine Lastschriftläufe.",
});
