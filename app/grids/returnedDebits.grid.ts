import { defineGrid } from "~/components/data-grid/declare";
import { returnReasonLabel } from "~/lib/return-reasons";
import { pageOfReturnedDebits, type ReturnedDebitRow } from "~/models/direct-debits.server";

/** What the return led to, as it stands now (derived: the fee's stop, the mandate's block). */
function consequenceText(row: ReturnedDebitRow): string {
  if (row.collectionStop) return "kein weiterer Einzug";
  if (row.mandateBlock) return "Mandat gesperrt";
  return "wird erneut eingezogen";
}

/**
 * Rücklastschriften (Lastschriftläufe, ADMIN and FINANCE; issue 31 item 3): every booked returned
 * debit, newest first, with its reason in German and what it led to (app/lib/return-reasons.ts);
 * a stopped fee can be collected again ('Wieder einziehen …', app/dialogs/directDebit).
 */
export const returnedDebitsGrid = defineGrid<ReturnedDebitRow>({
  id: "returnedDebits",
  entity: null,
  area: "directdebits",
  selectable: false,
  mounts: { PARENT: { title: "Rücklastschriften", prefix: "ret" } },
  columns: [
    { id: "day", header: "Gebucht", value: (r) => r.day, type: "date", sortable: false },
    { id: "name", header: "Person", value: (r) => r.name, link: (r) => ({ to: `/people/${r.personId}` }), sortable: false },
    { id: "feeText", header: "Posten", value: (r) => r.feeText, sortable: false },
    { id: "amount", header: "Betrag", value: (r) => r.amount, type: "money", sortable: false },
    { id: "reason", header: "Grund", value: (r) => returnReasonLabel(r.reason), sortable: false },
    { id: "consequence", header: "Folge", value: consequenceText, sortable: false },
  ],
  defaultSort: { id: "day", descending: true },
  model: { list: (db, query) => pageOfReturnedDebits(db, query.page, query.pageSize) },
  dialogs: { add: false, edit: false, delete: false },
  rowActions: [
    // A stopped fee goes back to the runs only after staff agreed it with the person.
    { label: "Wieder einziehen …", view: "collectAgain", entity: "directDebit", when: (r) => r.collectionStop !== null && r.openAmount > 0 && !r.mandateBlock },
  ],
  commandColumn: true,
  emptyText: "Noch keine Rücklastschriften gebucht.",
});
