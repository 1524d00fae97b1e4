import { getFormProps } from "@conform-to/react";
import { DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { DateField, FormErrors, LockedField, LookupSearch, LookupSelect, MoneyField, SelectField, TextField } from "~/components/forms/fields";
import { useRecordForm } from "~/components/forms/record-form";
import type { DonationDialogData } from "./dialog.server";
import { donationSchema, type DonationFormValues } from "./schema";

/**
 * 'Spende erfassen' (issue 35 item 5): the donor, the day the money came, the amount, how it came
 * (a cash donation goes into the Kasse) and a note. A membership fee is no donation: it is booked
 * where it is owed, never here.
 */
export default function DonationDialog({ data, actionData, closeHref }: DialogProps<DonationDialogData>) {
  const [form, fields] = useRecordForm<DonationFormValues>(donationSchema, {
    name: "donation",
    record: null,
    values: data.values,
    lastResult: actionData?.result,
  });
  const personLabel = data.people.find((person) => person.id === data.values.personId)?.label ?? "";
  return (
    <RouteDialog title="Spende erfassen" closeHref={closeHref}>
      {!data.personLocked && <LookupSearch field="personId" label="Person suchen" term={data.personSearch} />}
      <DialogForm intent="donation:save" {...getFormProps(form)}>
        <input type="hidden" name={fields.formKey.name} value={data.formKey} />
        <p className="mb-3 text-sm text-slate-700">
          Nur freiwillige Geldzuwendungen ohne Gegenleistung. Mitgliedsbeiträge und Aufnahmegebühren sind keine Spenden: Für sie wird keine
          Zuwendungsbestätigung ausgestellt (§ 10b Abs. 1 Satz 8 EStG).
        </p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {data.personLocked ? (
            <LockedField name={fields.personId.name} label="Spender/in" id={data.values.personId} text={personLabel} />
          ) : (
            <LookupSelect meta={fields.personId} label="Spender/in" options={data.people} emptyHint="Erst Person suchen" />
          )}
          <DateField meta={fields.date} label="Tag der Zuwendung" />
          <MoneyField meta={fields.amount} label="Betrag" />
          <SelectField meta={fields.method} label="Eingegangen als" options={data.methods} className="sm:col-span-2" />
          <TextField meta={fields.text} label="Notiz (z. B. Verwendungszweck)" className="sm:col-span-2" />
        </div>
        <FormErrors errors={[...(form.errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} id={form.errorId} />
        <DialogButtons submitLabel="Erfassen" closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
