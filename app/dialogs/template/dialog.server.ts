/**
 * The Vorlagen dialogs (ADMIN): add, edit, delete a template. A new installation's invoice
 * template can be added again from the default ('invoice', prefilled when it is missing).
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { DEFAULT_INVOICE_TEMPLATE, INVOICE_TEMPLATE_NAME, NO_INVOICE_TEMPLATE } from "~/lib/invoice-document";
import {
  deleteTemplate,
  getTemplate,
  getTemplateByName,
  insertTemplate,
  templateNameTaken,
  updateTemplate,
  type TemplateRecord,
} from "~/models/templates.server";
import { auditText, BIN_KEEPS, defineDialog, deleteOutcome, postedId, saveVersioned, type ConfirmData } from "../define.server";
import { templateSchema, type TemplateFormValues } from "./schema";
import { templatesGrid } from "~/grids/templates.grid";

const present = (template: TemplateRecord) => ({
  ...template,
  subject: template.subject ?? "",
  text: template.text ?? "",
  comments: template.comments ?? "",
  audit: auditText(template),
});
export type TemplateFormRecord = ReturnType<typeof present>;
export type TemplateDialogData = { template: TemplateFormRecord | null; defaults: Partial<TemplateFormValues> };

const input = ({ name, kind, subject, html, text, comments }: TemplateFormValues) => ({ name, kind, subject, html, text, comments });

export const dialog = defineDialog({
  area: "templates",
  history: { table: "templates", grid: templatesGrid },
  views: {
    // Without the invoice template, a new one starts as the default invoice template.
    add: async ({ db }): Promise<TemplateDialogData> => ({
      template: null,
      defaults: (await getTemplateByName(db, INVOICE_TEMPLATE_NAME))
        ? { kind: "MAIL" }
        : { name: INVOICE_TEMPLATE_NAME, kind: "INVOICE", html: DEFAULT_INVOICE_TEMPLATE },
    }),
    edit: async ({ db, id }): Promise<TemplateDialogData | null> => {
      const template = id ? await getTemplate(db, id) : undefined;
      return template ? { template: present(template), defaults: {} } : null;
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const template = id ? await getTemplate(db, id) : undefined;
      if (!template) return null;
      const details = [
        ...(template.name === INVOICE_TEMPLATE_NAME
          ? [`Ohne die Vorlage „${INVOICE_TEMPLATE_NAME}“ lassen sich keine Rechnungs-PDFs erzeugen (${NO_INVOICE_TEMPLATE}).`]
          : []),
        BIN_KEEPS,
      ];
      return {
        confirm: {
          title: `Vorlage ${template.name} löschen`,
          message: "Bist du sicher?",
          details,
          intent: "template:delete",
          id: template.id,
          confirmLabel: "Löschen",
        },
      };
    },
  },
  actions: {
    save: ({ db, user, form }) =>
      saveVersioned(parseWithZod(form, { schema: templateSchema }), {
        check: async ({ id, name, kind }): Promise<Record<string, string[]> | null> => {
          if (name === INVOICE_TEMPLATE_NAME && kind !== "INVOICE")
            return { kind: [`Die Vorlage „${INVOICE_TEMPLATE_NAME}“ ist die Rechnungsvorlage: Art „Rechnung (PDF)“.`] };
          return (await templateNameTaken(db, name, id)) ? { name: ["Eine Vorlage mit diesem Namen gibt es schon"] } : null;
        },
        insert: (value) => insertTemplate(db, input(value), user),
        update: (id, rowVersion, value) => updateTemplate(db, id, rowVersion, input(value), user),
        present,
        messages: { created: "Vorlage wurde angelegt", saved: "Vorlage wurde gespeichert" },
      }),
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteTemplate(db, id, user), "Vorlage wurde gelöscht"),
  },
});
