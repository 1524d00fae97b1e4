/**
 * A reminder's one dialog (ADMIN, FINANCE): cancel it while it is not sent; its reminder fee is
 * cancelled with it (app/models/reminders.server.ts cancelReminder).
 */
import { formatDate, formatMoney } from "~/lib/format";
import { cancelReminder, getReminder, REMINDER_ALREADY_SENT } from "~/models/reminders.server";
import { defineDialog, postedId, type ConfirmData } from "../define.server";

export const dialog = defineDialog({
  area: "reminders",
  views: {
    cancel: async ({ db, id }): Promise<ConfirmData | null> => {
      const reminder = id ? await getReminder(db, id) : undefined;
      if (!reminder) return null;
      return {
        confirm: {
          title: `${reminder.levelTitle} vom ${formatDate(reminder.date)} stornieren`,
          message: reminder.status === "PENDING" ? "Bist du sicher?" : REMINDER_ALREADY_SENT,
          details: [
            `${reminder.item} an ${reminder.personName}`,
            ...(reminder.fee ? [`Die Mahngebühr von ${formatMoney(reminder.fee)} wird mit storniert.`] : []),
          ],
          intent: "reminder:cancel",
          id: reminder.id,
          confirmLabel: "Ja, stornieren",
        },
      };
    },
  },
  actions: {
    cancel: async ({ db, user, form }) => {
      const id = postedId(form);
      const outcome = id ? await cancelReminder(db, id, user) : ({ status: "missing" } as const);
      if (outcome.status !== "cancelled") return outcome;
      return { status: "done", message: `${outcome.reminder.levelTitle} zu ${outcome.reminder.item} wurde storniert` };
    },
  },
});
