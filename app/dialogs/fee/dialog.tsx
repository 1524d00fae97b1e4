import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import {
  AccountFields,
  CheckboxField,
  DateField,
  LockedField,
  LookupSearch,
  LookupSelect,
  MoneyField,
  RecordKeys,
  TextAreaField,
  TextField,
} from "~/components/forms/fields";
import { PaymentFields } from "~/components/forms/payment-fields";
import { useHydrated } from "~/components/use-hydrated";
import type { FeeDialogData, FeeFormRecord } from "./dialog.server";
import { feeSchema, type FeeFormValues } from "./schema";

/**
 * 'Offenen Posten hinzufügen' and "Offenen Posten '{text}' bearbeiten". With JavaScript the open
 * amount shows only while the fee is open, the Buchungskommentar only for direct billing, and the
 * locked flags are disabled; without it every field shows and the server applies the same rules.
 */
export default function FeeDialog({ data, actionData, closeHref }: DialogProps<FeeDialogData>) {
  const hydrated = useHydrated();
  const fee = (actionData?.current as FeeFormRecord | undefined) ?? data.fee;
  const [form, fields] = useRecordForm<FeeFormValues>(feeSchema, { name: "fee", record: fee, values: fee ?? data.defaults, lastResult: actionData?.result });
  const sendInvoice = fee ? Boolean(fee.sendInvoice) : fields.sendInvoice.value === "on";
  const isOpen = fields.isOpen.value === "on";
  // A payment is entered when what is open goes below what the payments leave: how and when it came in.
  const storedOpen = fee ? fee.openAmount : fields.amount.value;
  const typedOpen = fields.openAmount.value;
  const paying = !hydrated || !isOpen || (Boolean(typedOpen) && typedOpen !== storedOpen);
  const personLabel = data.people.find((person) => person.id === (fee?.personId ?? data.defaults.personId))?.label ?? "";
  return (
    <RouteDialog title={fee ? `Offenen Posten '${fee.text}' bearbeiten` : "Offenen Posten hinzufügen"} closeHref={closeHref}>
      {!data.personLocked && <LookupSearch field="personId" label="Person suchen" term={data.personSearch} />}
      <DialogForm intent="fee:save" {...getFormProps(form)}>
        <RecordKeys record={fee} />
        <div className="grid grid-cols-2 gap-3">
          {data.personLocked ? (
            <LockedField name={fields.personId.name} label="Person" id={fee?.personId ?? data.defaults.personId} text={personLabel} />
          ) : (
            <LookupSelect meta={fields.personId} label="Person" options={data.people} emptyHint="Erst Person suchen" />
          )}
          <DateField meta={fields.date} label="Datum" />
          <DateField meta={fields.dueDate} label="Fällig am" />
          <TextField meta={fields.text} label="Text" className="col-span-2" />
          <MoneyField meta={fields.amount} label="Betrag" />
          {(!hydrated || isOpen) && <MoneyField meta={fields.openAmount} label="Offener Betrag" />}
          <div className="col-span-2 flex flex-wrap gap-x-6 gap-y-2">
            {/* Locked by sendInvoice: the stored state is posted, the server keeps it anyway. */}
            {hydrated && sendInvoice ? (
              <label className="flex items-center gap-2 text-sm text-slate-500">
                <input type="checkbox" checked={isOpen} disabled className="accent-wuff-700" />
                Offen (bei Rechnungsstellung gesperrt)
                {isOpen && <input type="hidden" name={fields.isOpen.name} value="on" />}
              </label>
            ) : (
              <CheckboxField meta={fields.isOpen} label="Offen" />
            )}
            {fee ? (
              <label className="flex items-center gap-2 text-sm text-slate-500">
                <input type="checkbox" checked={sendInvoice} disabled className="accent-wuff-700" />
                Per Rechnung (nach dem Anlegen gesperrt)
              </label>
            ) : (
              <CheckboxField meta={fields.sendInvoice} label="Per Rechnung" />
            )}
          </div>
          {!hydrated && (
            <p className="col-span-2 text-sm text-slate-600">Ohne Haken bei „Offen“ wird der offene Betrag 0 € und das Fälligkeitsdatum entfällt.</p>
          )}
          {(!hydrated || !sendInvoice) && <PaymentFields fields={fields} paymentKey={data.paymentKey} hidden={!paying} />}
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
          <AccountFields account={fields.accountNumber} sphere={fields.sphere} />
          {(!hydrated || !sendInvoice) && (
            <TextAreaField
              meta={fields.paymentComments}
              label={hydrated ? "Buchungskommentar" : "Buchungskommentar (nur ohne Rechnung)"}
              className="col-span-2"
            />
          )}
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={fee?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
