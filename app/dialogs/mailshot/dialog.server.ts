/**
 * The mailshot dialogs (ADMIN): add, edit (with two attachment documents uploaded to R2) and
 * delete (into the Papierkorb). Sending is a task (app/dialogs/mailing, Tasks screen).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { isRecipientQuery, RECIPIENT_QUERY_LABELS } from "~/lib/mail";
import { mailTemplateNames } from "~/models/mails.server";
import {
  deleteMailshot,
  getMailshot,
  insertMailshot,
  mailshotNameTaken,
  updateMailshot,
  type MailshotInput,
  type MailshotRecord,
} from "~/models/mailshots.server";
import { auditText, defineDialog, deleteOutcome, postedId, saveVersioned, type ConfirmData, type DialogOutcome } from "../define.server";
import { documentName, readUpload, storeUpload, type Upload } from "./documents.server";
import { mailshotSchema } from "./schema";
import { mailshotsGrid } from "~/grids/mailshots.grid";

const present = (mailshot: MailshotRecord) => ({
  ...mailshot,
  doc1: documentName(mailshot.attachDocPath1),
  doc2: documentName(mailshot.attachDocPath2),
  audit: auditText(mailshot),
});
export type MailshotFormRecord = ReturnType<typeof present>;
export type MailshotDialogData = { mailshot: MailshotFormRecord | null; templates: string[]; queries: { value: string; label: string }[] };

const choices = async (db: Parameters<typeof mailTemplateNames>[0]) => ({
  templates: await mailTemplateNames(db),
  queries: Object.entries(RECIPIENT_QUERY_LABELS).map(([value, label]) => ({ value, label })),
});

export const dialog = defineDialog({
  area: "mailshots",
  history: { table: "mailshots", grid: mailshotsGrid },
  views: {
    add: async ({ db }): Promise<MailshotDialogData> => ({ mailshot: null, ...(await choices(db)) }),
    edit: async ({ db, id }): Promise<MailshotDialogData | null> => {
      const mailshot = id ? await getMailshot(db, id) : undefined;
      return mailshot ? { mailshot: present(mailshot), ...(await choices(db)) } : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const mailshot = id ? await getMailshot(db, id) : undefined;
      return mailshot
        ? {
            confirm: {
              title: `Mailshot '${mailshot.name}' löschen`,
              message: "Bist du sicher?",
              intent: "mailshot:delete",
              id: mailshot.id,
              confirmLabel: "Löschen",
            },
          }
        : null;
    },
  },
  actions: {
    save: async ({ db, user, form, env }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: mailshotSchema });
      // The files are checked before anything is stored: a wrong one stores nothing.
      const [first, second] = await Promise.all([readUpload(form, "attachDoc1"), readUpload(form, "attachDoc2")]);
      const fileErrors = Object.fromEntries(
        [
          ["attachDoc1", first.error],
          ["attachDoc2", second.error],
        ].filter(([, error]) => error) as [string, string][],
      );
      if (submission.status !== "success" || Object.keys(fileErrors).length > 0) {
        return {
          status: "invalid",
          result: submission.reply({ fieldErrors: Object.fromEntries(Object.entries(fileErrors).map(([field, error]) => [field, [error]])) }),
        };
      }
      const { value } = submission;
      const current = value.id ? await getMailshot(db, value.id) : undefined;
      if (value.id && !current) return { status: "missing" };
      if (!(await mailTemplateNames(db)).includes(value.templateName))
        return { status: "invalid", result: submission.reply({ fieldErrors: { templateName: ["Diese Vorlage gibt es nicht"] } }) };
      if (await mailshotNameTaken(db, value.name, value.id))
        return { status: "invalid", result: submission.reply({ fieldErrors: { name: ["Diesen Mailshot gibt es schon"] } }) };

      const stored: string[] = [];
      const keep = async (upload: Upload | null, existing: string | null | undefined, remove: boolean) => {
        if (upload) {
          const key = await storeUpload(env.INVOICES, upload);
          stored.push(key);
          return key;
        }
        return remove ? null : (existing ?? null);
      };
      const input: MailshotInput = {
        name: value.name,
        recipientQuery: isRecipientQuery(value.recipientQuery) ? value.recipientQuery : "members",
        templateName: value.templateName,
        subject: value.subject,
        cc: value.cc,
        attachInvoice: value.attachInvoice,
        attachDocPath1: await keep(first.upload, current?.attachDocPath1, value.removeDoc1),
        attachDocPath2: await keep(second.upload, current?.attachDocPath2, value.removeDoc2),
      };
      const outcome = await saveVersioned(submission, {
        insert: () => insertMailshot(db, input, user),
        update: (id, rowVersion) => updateMailshot(db, id, rowVersion, input, user),
        present,
        messages: { created: "Mailshot wurde angelegt", saved: "Mailshot wurde gespeichert" },
      });
      // Not saved: the documents just stored go again. (A replaced document stays in R2: the
      // Papierkorb may bring back a mailshot that names it.)
      if (outcome.status !== "saved") await Promise.all(stored.map((key) => env.INVOICES.delete(key)));
      return outcome;
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteMailshot(db, id, user), "Mailshot wurde gelöscht"),
  },
});
