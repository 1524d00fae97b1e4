/**
 * A reminder's one dialog (ADMIN, FINANCE): cancel it while it is not sent; its reminder fee is
 * cancelled with it (app/models/reminders.server.ts cancelReminder). A reminder whose mail failed
 * ('Versand fehlgeschlagen') is sent again or printed to be posted (retryFailedReminder).
 */
import { formatDate, formatMoney } from "~/lib/format";
import { cancelReminder, getReminder, isUnsent, REMINDER_ALREADY_SENT } from "~/models/reminders.server";
import type { Db } from "~/db/client.server";
import { retryFailedReminder, REMINDER_NOT_FAILED } from "~/jobs/reminder-run.server";
import type { User } from "~/lib/access";
import { personForMail } from "~/models/mails.server";
import { defineDialog, postedId, type ConfirmData, type DialogOutcome } from "../define.server";

export const dialog = defineDialog({
  area: "reminders",
  views: {
    cancel: async ({ db, id }): Promise<ConfirmData | null> => {
      const reminder = id ? await getReminder(db, id) : undefined;
      if (!reminder) return null;
      return {
        confirm: {
          title: `${reminder.levelTitle} vom ${formatDate(reminder.date)} stornieren`,
          message: isUnsent(reminder) ? "Bist du sicher?" : REMINDER_ALREADY_SENT,
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
    resend: async ({ db, id }) => retryView(db, id, "resend"),
    print: async ({ db, id }) => retryView(db, id, "print"),
  },
  actions: {
    resend: async ({ db, env, user, form }) => retryAction(db, env, user, form, "mail"),
    print: async ({ db, env, user, form }) => retryAction(db, env, user, form, "print"),
    cancel: async ({ db, user, form }) => {
      const id = postedId(form);
      const outcome = id ? await cancelReminder(db, id, user) : ({ status: "missing" } as const);
      if (outcome.status !== "cancelled") return outcome;
      return { status: "done", message: `${outcome.reminder.levelTitle} zu ${outcome.reminder.item} wurde storniert` };
    },
  },
});

const RETRY = {
  resend: { title: "erneut senden", label: "Ja, erneut senden", what: (email: string) => `Die Mahnung geht noch einmal per Mail an ${email || "die Person"}.` },
  print: {
    title: "als Brief drucken",
    label: "Ja, als Brief drucken",
    what: () => "Die Mahnung gilt als per Post versandt; ihr Brief (PDF) steht danach in der Zeile zum Drucken bereit.",
  },
} as const;

async function retryView(db: Db, id: number | null, view: keyof typeof RETRY): Promise<ConfirmData | null> {
  const reminder = id ? await getReminder(db, id) : undefined;
  if (!reminder) return null;
  const email = (await personForMail(db, reminder.personId))?.email ?? "";
  return {
    confirm: {
      title: `${reminder.levelTitle} vom ${formatDate(reminder.date)} ${RETRY[view].title}`,
      message: reminder.status === "FAILED" ? "Bist du sicher?" : REMINDER_NOT_FAILED,
      details: [`${reminder.item} an ${reminder.personName}`, ...(reminder.failure ? [`Fehlgeschlagen: ${reminder.failure}`] : []), RETRY[view].what(email)],
      intent: `reminder:${view}`,
      id: reminder.id,
      confirmLabel: RETRY[view].label,
      ...(reminder.status === "FAILED" ? {} : { refusal: REMINDER_NOT_FAILED }),
    },
  };
}

async function retryAction(db: Db, env: Env, user: User, form: FormData, how: "mail" | "print"): Promise<DialogOutcome> {
  const id = postedId(form);
  const outcome = id ? await retryFailedReminder(env, db, id, how, user) : ({ status: "missing" } as const);
  if (outcome.status !== "sent") return outcome;
  const { levelTitle, personName } = outcome.reminder;
  const done = how === "mail" ? "wurde per Mail versandt" : "ist als Brief vermerkt: bitte drucken und versenden";
  return { status: "done", message: `${levelTitle} an ${personName} ${done}` };
}
