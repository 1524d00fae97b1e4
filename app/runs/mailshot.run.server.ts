/** 'Mailshot senden' (Tasks): a mailshot's mail to each recipient (item: app/jobs/mailshot-run.server.ts). */
import { loadTemplate, mailSettings, MailProblem } from "~/jobs/mails.server";
import { MAILSHOT_SLICE_SIZE, performMailshotItem, summarizeMailshotRun, type MailshotRunParams } from "~/jobs/mailshot-run.server";
import { todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { MAILSHOT_MISSING, NOTHING_TO_MAIL } from "~/lib/mail";
import { getMailshot, mailshotRecipients } from "~/models/mailshots.server";
import { routeMail } from "~/services/mail.server";
import { defineRunKind } from "./declare.server";

export const mailshotRun = defineRunKind({
  type: "MAILSHOT",
  sliceSize: MAILSHOT_SLICE_SIZE,
  // One item per recipient with an e-mail address; the mailshot as it is now is frozen in the run.
  plan: async ({ db, env, form }) => {
    const id = parseId(form.get("id"));
    const mailshot = id ? await getMailshot(db, id) : undefined;
    if (!mailshot) return { refused: `${MAILSHOT_MISSING} (diesen Mailshot gibt es nicht)` };
    const settings = await mailSettings(env, db);
    const route = routeMail(env, settings.testAccount, "", null);
    if (route.status === "blocked") return { refused: route.message };
    try {
      await loadTemplate(db, mailshot.templateName);
    } catch (error) {
      if (error instanceof MailProblem) return { refused: error.message };
      throw error;
    }
    const { recipients } = await mailshotRecipients(db, mailshot.recipientQuery, todayInBerlin());
    if (recipients.length === 0) return { refused: NOTHING_TO_MAIL };
    const params: MailshotRunParams = {
      mailshotId: mailshot.id,
      name: mailshot.name,
      templateName: mailshot.templateName,
      subject: mailshot.subject,
      cc: mailshot.cc,
      attachInvoice: mailshot.attachInvoice,
      attachDocPaths: [mailshot.attachDocPath1, mailshot.attachDocPath2].filter((key): key is string => Boolean(key)),
    };
    return {
      items: recipients.map((person) => person.id),
      params,
      emptyMessage: NOTHING_TO_MAIL,
      label: `Mailshot „${mailshot.name}“`,
      startedMessage: `Mailshot „${mailshot.name}“ gestartet: ${recipients.length} Mails werden versandt. working ...`,
    };
  },
  perform: performMailshotItem,
  summarize: summarizeMailshotRun,
});
