import { getFormProps } from "@conform-to/react";
import { DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { FormErrors, MoneyField, RecordKeys, SelectField, TextField } from "~/components/forms/fields";
import { useRecordForm } from "~/components/forms/record-form";
import type { CreditNoteDialogData } from "./dialog.server";
import { creditNoteSchema, type CreditNoteFormValues } from "./schema";

/**
 * 'Gutschrift' (issue 30): credits part of an issued invoice by a credit note of its own, numbered
 * and naming the invoice; it settles what is open, and what was paid beyond that becomes the
 * person's credit (Guthaben).
 */
export default function CreditNoteDialog({ data, actionData, closeHref }: DialogProps<CreditNoteDialogData>) {
  const [form, fields] = useRecordForm<CreditNoteFormValues>(creditNoteSchema, {
    name: "creditNote",
    record: data.invoice,
    values: data.values,
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title={`Gutschrift zu ${data.invoice.title}`} closeHref={closeHref}>
      <DialogForm intent="creditNote:create" {...getFormProps(form)}>
        <RecordKeys record={data.invoice} />
        <input type="hidden" name={fields.formKey.name} value={data.formKey} />
        <p className="mb-3 text-sm text-slate-700">
          {`${data.invoice.personName}: Rechnungsbetrag ${data.invoice.amount}, offen ${data.invoice.openAmount}. `}
          Die Gutschrift erhält die nächste Rechnungsnummer und nennt die Rechnung. Sie verringert den offenen Betrag; was schon bezahlt ist, wird Guthaben der
          Person.
        </p>
        <div className="grid grid-cols-2 gap-3">
          <TextField meta={fields.text} label="Buchungstext" className="col-span-2" />
          <MoneyField meta={fields.amount} label="Betrag (brutto)" />
          <SelectField meta={fields.taxCase} label="Umsatzsteuer" options={data.cases} />
        </div>
        <FormErrors errors={[...(form.errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} id={form.errorId} />
        <DialogButtons submitLabel="Gutschrift ausstellen" closeHref={closeHref} disabled={data.refusal !== null} reason={data.refusal} />
      </DialogForm>
    </RouteDialog>
  );
}
