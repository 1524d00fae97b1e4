import { getFormProps } from "@conform-to/react";
import { DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { AccountFields, DateField, FormErrors, MoneyField, SelectField, TextField } from "~/components/forms/fields";
import { useRecordForm } from "~/components/forms/record-form";
import type { CashEntryDialogData } from "./dialog.server";
import { cashEntrySchema, type CashEntryFormValues } from "./schema";

/**
 * 'Buchung erfassen' in the Kasse (issue 35 item 2): Einlage, Ausgabe, Bankeinzahlung or Entnahme,
 * with date, amount and text. Cash payments of people are booked where the money is (Bezahlt,
 * Guthaben erstatten) and come into the Kasse with the journal.
 */
export default function CashEntryDialog({ data, actionData, closeHref }: DialogProps<CashEntryDialogData>) {
  const [form, fields] = useRecordForm<CashEntryFormValues>(cashEntrySchema, {
    name: "cashEntry",
    record: null,
    values: data.values,
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title="Buchung erfassen" closeHref={closeHref}>
      <DialogForm intent="cashEntry:save" {...getFormProps(form)}>
        <input type="hidden" name={fields.formKey.name} value={data.formKey} />
        <p className="mb-3 text-sm text-slate-700">
          Kassenbestand: <span className="tabular-nums">{data.balance}</span>
          {data.lastDate ? `, letzte Buchung am ${data.lastDate}` : ""}. Eine Buchung wird nicht geändert: Ein Fehler wird storniert.
        </p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <SelectField meta={fields.kind} label="Art" options={data.kinds} />
          <DateField meta={fields.date} label="Datum" />
          <MoneyField meta={fields.amount} label="Betrag" />
          <TextField meta={fields.text} label="Buchungstext" className="sm:col-span-2" />
          <AccountFields account={fields.accountNumber} sphere={fields.sphere} />
        </div>
        <FormErrors errors={[...(form.errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} id={form.errorId} />
        <DialogButtons submitLabel="Buchen" closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
