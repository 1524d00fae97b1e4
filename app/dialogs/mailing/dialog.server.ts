/**
 * The mail tasks of the Tasks screen (ADMIN): today's birthday mails now (the cron sends them every
 * morning anyway), the mailshot run with its preview, and the invoice mails that are not sent.
 */
import { birthdaysOn, sendBirthdayMails } from "~/jobs/mails.server";
import { currentYearInBerlin, todayInBerlin } from "~/lib/format";
import { INVOICE_MAILS_REFUSED } from "~/lib/mail";
import { birthdayMailStatus, peopleWithBirthday } from "~/models/mails.server";
import { routeMail } from "~/services/mail.server";
import { getConfiguration } from "~/models/configuration.server";
import { defineDialog, type DialogOutcome } from "../define.server";

export type BirthdayPreview = {
  kind: "birthdays";
  today: string;
  people: { id: number; name: string; email: string; status: "offen" | "schon versandt" | "nicht bestätigt" | "fehlgeschlagen" }[];
  /** Why nothing can be sent now (no test account), or null. */
  problem: string | null;
};

export type MailingDialogData = BirthdayPreview | { kind: "invoiceMails"; message: string };

const STATUS = { SENT: "schon versandt", CLAIMED: "nicht bestätigt", FAILED: "fehlgeschlagen" } as const;

export const dialog = defineDialog({
  area: "tasks",
  views: {
    birthdays: async ({ db, env }): Promise<MailingDialogData> => {
      const today = todayInBerlin();
      const people = await peopleWithBirthday(db, birthdaysOn(today));
      const status = await birthdayMailStatus(db, people.map((person) => person.id), currentYearInBerlin());
      const route = routeMail(env, (await getConfiguration(db))?.smtpTestAccount, "", null);
      return {
        kind: "birthdays",
        today,
        people: people.map((person) => {
          const state = status.get(person.id);
          return { id: person.id, name: `${person.firstName} ${person.lastName}`.trim(), email: person.email ?? "", status: state ? STATUS[state] : "offen" };
        }),
        problem: route.status === "blocked" ? route.message : null,
      };
    },
    invoiceMails: async (): Promise<MailingDialogData> => ({ kind: "invoiceMails", message: INVOICE_MAILS_REFUSED }),
  },
  actions: {
    birthdays: async ({ db, user, env }): Promise<DialogOutcome> => {
      const outcome = await sendBirthdayMails(env, db, user);
      return outcome.warning && outcome.sent === 0 ? { status: "refused", message: outcome.message } : { status: "done", message: outcome.message };
    },
    // Spec 001 §2: the task is shown disabled and answers this.
    invoiceMails: async (): Promise<DialogOutcome> => ({ status: "refused", message: INVOICE_MAILS_REFUSED }),
  },
});
