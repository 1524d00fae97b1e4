import { getFormProps } from "@conform-to/react";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { CheckboxField, FormErrors, RecordKeys, SelectField, TextField } from "~/components/forms/fields";
import { useRecordForm } from "~/components/forms/record-form";
import type { MailshotDialogData, MailshotFormRecord } from "./dialog.server";
import { DOCUMENT_TYPES, mailshotSchema, type MailshotFormValues } from "./schema";

/** One attachment document: the file stored now (with 'entfernen'), and a file to upload instead. */
function DocumentField({ index, current, errors }: { index: 1 | 2; current: string | null | undefined; errors?: string[] }) {
  const id = `mailshot-doc${index}`;
  return (
    <div className="col-span-2">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        Anhang {index} (PDF, PNG oder JPEG, höchstens 5 MB)
      </label>
      {current && (
        <p className="mb-1 flex items-center gap-3 text-sm">
          <span>{current}</span>
          <label className="flex items-center gap-1">
            <input type="checkbox" name={`removeDoc${index}`} /> entfernen
          </label>
        </p>
      )}
      <input id={id} type="file" name={`attachDoc${index}`} accept={DOCUMENT_TYPES} className="block w-full text-sm" aria-invalid={errors ? true : undefined} />
      <FormErrors errors={errors} />
    </div>
  );
}

/** 'Mailshot hinzufügen' and "Mailshot '{name}' bearbeiten". */
export default function MailshotDialog({ data, actionData, closeHref }: DialogProps<MailshotDialogData>) {
  const mailshot = (actionData?.current as MailshotFormRecord | undefined) ?? data.mailshot;
  const [form, fields] = useRecordForm<MailshotFormValues>(mailshotSchema, {
    name: "mailshot",
    record: mailshot,
    values: mailshot ?? {
      recipientQuery: "members",
      templateName: data.templates.includes("Einladung Mitgliederversammlung") ? "Einladung Mitgliederversammlung" : "",
    },
    lastResult: actionData?.result,
  });
  const fileErrors = (actionData?.result?.error ?? {}) as Record<string, string[] | null>;
  return (
    <RouteDialog title={mailshot ? `Mailshot '${mailshot.name}' bearbeiten` : "Mailshot hinzufügen"} closeHref={closeHref}>
      <DialogForm intent="mailshot:save" encType="multipart/form-data" {...getFormProps(form)}>
        <RecordKeys record={mailshot} />
        <div className="grid grid-cols-2 gap-3">
          <TextField meta={fields.name} label="Name" className="col-span-2" />
          <SelectField meta={fields.recipientQuery} label="Empfänger" options={data.queries} className="col-span-2" />
          <SelectField
            meta={fields.templateName}
            label="Vorlage"
            options={data.templates.map((name) => ({ value: name, label: name }))}
            placeholder=""
            className="col-span-2"
          />
          <TextField meta={fields.subject} label="Betreff" className="col-span-2" />
          <TextField meta={fields.cc} label="Cc" type="email" className="col-span-2" />
          <CheckboxField meta={fields.attachInvoice} label="Rechnung anhängen (die neueste mit PDF, offene zuerst)" className="col-span-2" />
          <DocumentField index={1} current={mailshot?.doc1} errors={fileErrors.attachDoc1 ?? undefined} />
          <DocumentField index={2} current={mailshot?.doc2} errors={fileErrors.attachDoc2 ?? undefined} />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={mailshot?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
