import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { RecordKeys, SelectField, TextAreaField, TextField } from "~/components/forms/fields";
import { TEMPLATE_KIND_LABELS } from "~/lib/labels";
import type { TemplateDialogData, TemplateFormRecord } from "./dialog.server";
import { templateSchema, type TemplateFormValues } from "./schema";

const KINDS = Object.entries(TEMPLATE_KIND_LABELS).map(([value, label]) => ({ value, label }));

/**
 * 'Vorlage hinzufügen' / 'Vorlage {name} bearbeiten': name, kind, subject, the HTML (large) and
 * the plain text. An invoice template links to its preview with sample data (as saved).
 */
export default function TemplateDialog({ data, actionData, closeHref }: DialogProps<TemplateDialogData>) {
  const template = (actionData?.current as TemplateFormRecord | undefined) ?? data.template;
  const [form, fields] = useRecordForm<TemplateFormValues>(templateSchema, {
    name: "template",
    record: template,
    values: template ?? data.defaults,
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title={template ? `Vorlage ${template.name} bearbeiten` : "Vorlage hinzufügen"} closeHref={closeHref} width={900}>
      <DialogForm intent="template:save" {...getFormProps(form)}>
        <RecordKeys record={template} />
        <div className="grid grid-cols-2 gap-3">
          <TextField meta={fields.name} label="Name" />
          <SelectField meta={fields.kind} label="Art" options={KINDS} />
          <TextField meta={fields.subject} label="Betreff (Mail)" className="col-span-2" />
          <TextAreaField meta={fields.html} label="HTML" rows={18} code className="col-span-2" />
          <TextAreaField meta={fields.text} label="Text (Mail ohne HTML)" rows={6} code className="col-span-2" />
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <p className="mt-2 text-xs text-slate-600">
          Werte in {"{{doppelten}}"} Klammern werden maskiert, z. B. {"{{invoiceNumber}}"}, {"{{person.name}}"}, {"{{#rows}}…{{/rows}}"}.
        </p>
        {template?.kind === "INVOICE" && (
          <p className="mt-2 text-sm">
            Vorschau mit Beispieldaten (gespeicherte Fassung):{" "}
            <a href={`/templates/preview/${template.id}`} target="_blank" rel="noopener" className="text-wuff-700 underline">
              HTML
            </a>{" "}
            ·{" "}
            <a href={`/templates/preview/${template.id}?format=pdf`} target="_blank" rel="noopener" className="text-wuff-700 underline">
              PDF
            </a>
          </p>
        )}
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={template?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
