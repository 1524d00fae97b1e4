import { z } from "zod";
import { id, requiredText } from "~/lib/form-fields";
import { MAIL_SOURCES } from "~/lib/mail";

/** Spec 001 §5 Mail preview: the subject is required; to, cc and attachInvoice are only shown. */
export const SUBJECT_REQUIRED = "Betreff ist erforderlich";

export const mailSendSchema = z.object({
  source: z.enum(MAIL_SOURCES, { error: "Unbekannte Mail" }),
  id: id("Datensatz fehlt"),
  subject: requiredText(SUBJECT_REQUIRED, 200),
});

export type MailSendValues = z.infer<typeof mailSendSchema>;
