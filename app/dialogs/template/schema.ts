import { z } from "zod";
import { optionalId, optionalText, requiredText, rowVersion } from "~/lib/form-fields";
import { codesOf, TEMPLATE_KIND_LABELS } from "~/lib/labels";
import { templateProblem } from "~/lib/templates";

/** A template's HTML (and plain text) may be long; a mail or an invoice stays far below this. */
const MAX_TEMPLATE_LENGTH = 50_000;

/** A mustache template that parses (unclosed sections are refused with the parser's reason). */
const parses = (value: string | null, context: z.RefinementCtx) => {
  const problem = value ? templateProblem(value) : null;
  if (problem) context.addIssue({ code: "custom", message: problem });
};

/** A Vorlage: name (unique), kind, the mail's subject, the HTML and the plain text (mustache). */
export const templateSchema = z.object({
  id: optionalId(),
  rowVersion: rowVersion().optional(),
  name: requiredText("Name ist erforderlich", 100),
  kind: z.enum(codesOf(TEMPLATE_KIND_LABELS), { error: "Art ist erforderlich" }),
  subject: optionalText(200),
  html: requiredText("HTML ist erforderlich", MAX_TEMPLATE_LENGTH).superRefine(parses),
  text: optionalText(MAX_TEMPLATE_LENGTH).superRefine(parses),
  comments: optionalText(500),
});

export type TemplateFormValues = z.infer<typeof templateSchema>;
