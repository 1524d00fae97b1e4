import { defineGrid } from "~/components/data-grid/declare";
import { TABLE_LABELS } from "~/lib/labels";
import { listDeletedRecords, type DeletedRecordRow } from "~/models/recycle-bin.server";

/** Gelöschte Datensätze (spec 000 §2 Recycle bin): grouped by transaction, newest first. */
export const recycleBinGrid = defineGrid<DeletedRecordRow>({
  id: "recyclebin",
  entity: "bin",
  area: "recyclebin",
  mounts: {
    PARENT: {
      title: "Gelöschte Datensätze",
      maxHeight: "calc(100vh - 256px)",
      hint: "Zum Wiederherstellen eine Zeile doppelt anklicken oder auswählen und „Wiederherstellen“ wählen. Mit einem Satz kommt alles zurück, was mit ihm gelöscht wurde.",
    },
  },
  columns: [
    { id: "transactionId", header: "Transaktion", value: (r) => r.transactionId, type: "number", sortable: false },
    { id: "deletedOn", header: "Löschdatum", value: (r) => r.deletedOn, type: "dateTimeSeconds", sortable: false },
    { id: "deletedBy", header: "gelöscht von", value: (r) => r.deletedBy, sortable: false },
    { id: "tableName", header: "Tabelle", value: (r) => TABLE_LABELS[r.tableName] ?? r.tableName, sortable: false },
    { id: "identifier1", header: "Feld1", value: (r) => r.identifier1, sortable: false },
    { id: "identifier2", header: "Feld2", value: (r) => r.identifier2, sortable: false },
    { id: "identifier3", header: "Feld3", value: (r) => r.identifier3, sortable: false },
  ],
  defaultSort: { id: "transactionId", descending: true },
  model: { list: (db, query) => listDeletedRecords(db, query.page, query.pageSize) },
  // Double click (and the toolbar's Wiederherstellen) asks before restoring.
  dialogs: { add: false, edit: false, delete: false, open: "restore" },
  rowActions: [{ label: "Wiederherstellen", view: "restore" }],
  groupBy: (row) => `Transaktion ${row.transactionId}`,
  columnChooser: false,
  refresh: true,
  emptyText: "Der Papierkorb ist leer",
});
