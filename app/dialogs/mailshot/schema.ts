import { z } from "zod";
import { checkbox, optionalEmail, optionalId, requiredText, rowVersion } from "~/lib/form-fields";
import { RECIPIENT_QUERY_KEYS } from "~/lib/mail";
import { SUBJECT_REQUIRED } from "../mail/schema";

/** A mailshot (spec 001 §3): name, recipients (a named query), template, subject, cc, whether the
 *  recipient's invoice is attached; the two documents are files posted beside (not in the schema). */
export const mailshotSchema = z.object({
  id: optionalId(),
  rowVersion: rowVersion().optional(),
  name: requiredText("Name ist erforderlich", 100),
  recipientQuery: z.enum(RECIPIENT_QUERY_KEYS, { error: "Bitte die Empfänger wählen" }),
  templateName: requiredText("Bitte eine Vorlage wählen", 100),
  subject: requiredText(SUBJECT_REQUIRED, 200),
  cc: optionalEmail(),
  attachInvoice: checkbox(),
  removeDoc1: checkbox(),
  removeDoc2: checkbox(),
});

export type MailshotFormValues = z.infer<typeof mailshotSchema>;

/** The documents a mailshot may carry: PDF and images, at most 5 MB each. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
export const DOCUMENT_TYPES = "application/pdf,image/png,image/jpeg";
