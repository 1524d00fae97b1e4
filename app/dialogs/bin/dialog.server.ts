/** The Papierkorb's one dialog: restore a deleted record (and what was deleted with it). */
import { parseId } from "~/lib/ids";
import { TABLE_LABELS } from "~/lib/labels";
import { getDeletedRecord, mainRecordOfTransaction, recordIdentifiers, restoreDeletedRecord } from "~/models/recycle-bin.server";
import { defineDialog, postedId, type ConfirmData } from "../define.server";

export const dialog = defineDialog({
  area: "recyclebin",
  views: {
    restore: async ({ db, id }): Promise<ConfirmData | null> => {
      const record = id ? await getDeletedRecord(db, id) : undefined;
      if (!record) return null;
      return {
        confirm: {
          title: "Du bist im Begriff, diesen gelöschten Satz wiederherzustellen.",
          message: "Bist du sicher?",
          intent: "bin:restore",
          id: record.id,
          confirmLabel: "Ja, wiederherstellen",
        },
      };
    },
  },
  actions: {
    restore: async ({ db, form }) => {
      const id = postedId(form);
      const outcome = id ? await restoreDeletedRecord(db, id) : ({ status: "missing" } as const);
      if (outcome.status !== "restored") return outcome;
      return { status: "done", message: `Gelöschter Satz ${recordIdentifiers(outcome.record)} wurde wiederhergestellt` };
    },
    // 'Rückgängig' in the toast after a delete: the whole transaction comes back.
    undo: async ({ db, form }) => {
      const transactionId = parseId(form.get("transactionId"));
      const record = transactionId ? await mainRecordOfTransaction(db, transactionId) : undefined;
      const outcome = record ? await restoreDeletedRecord(db, record.id) : ({ status: "missing" } as const);
      if (outcome.status !== "restored") return outcome;
      const table = TABLE_LABELS[outcome.record.tableName] ?? outcome.record.tableName;
      return { status: "done", message: `Rückgängig gemacht: ${table} ${recordIdentifiers(outcome.record)} ist wieder da` };
    },
  },
});
