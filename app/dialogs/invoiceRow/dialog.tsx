import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { AccountFields, LockedField, RecordKeys, SelectField, TextField } from "~/components/forms/fields";
import { TAX_CASE_OPTIONS } from "~/lib/tax";
import type { InvoiceRowDialogData, InvoiceRowFormRecord } from "./dialog.server";
import { invoiceRowSchema, type InvoiceRowFormValues } from "./schema";

/**
 * 'Neue Rechnungszeile anlegen' and "Rechnungszeile '{text}' bearbeiten" (spec 001 §2): Buchungstext
 * and Betrag, and how the row is taxed (issue 30; a new row starts with the default of Einstellungen). The amount may be negative (a discount): typed as text, so phones offer the minus.
 * A row of an issued invoice cannot be changed: the dialog says why and Speichern stays disabled.
 */
export default function InvoiceRowDialog({ data, actionData, closeHref }: DialogProps<InvoiceRowDialogData>) {
  const row = (actionData?.current as InvoiceRowFormRecord | undefined) ?? data.row;
  const [form, fields] = useRecordForm<InvoiceRowFormValues>(invoiceRowSchema, {
    name: "invoiceRow",
    record: row,
    values: row ?? { invoiceId: data.invoice.id, taxCase: data.defaultTaxCase },
    lastResult: actionData?.result,
    version: row ? undefined : `invoice${data.invoice.id}`,
  });
  const title = row ? `Rechnungszeile '${row.text}' bearbeiten` : "Neue Rechnungszeile anlegen";
  return (
    <RouteDialog title={title} closeHref={closeHref}>
      <DialogForm intent="invoiceRow:save" {...getFormProps(form)}>
        <RecordKeys record={row} />
        <div className="grid grid-cols-2 gap-3">
          <LockedField
            name="invoiceId"
            label="Rechnung"
            id={row ? null : data.invoice.id}
            text={row ? `${data.invoice.label}, Zeile ${row.lineNumber}` : data.invoice.label}
          />
          <TextField meta={fields.text} label="Buchungstext" className="col-span-2" />
          <TextField meta={fields.amount} label="Betrag (brutto)" suffix="€" placeholder="z. B. 45,00 oder -5,00" />
          <SelectField meta={fields.taxCase} label="Umsatzsteuer" options={TAX_CASE_OPTIONS} />
          <AccountFields account={fields.accountNumber} sphere={fields.sphere} />
        </div>
        <RecordFormFooter
          errors={form.errors}
          errorId={form.errorId}
          actionData={actionData}
          audit={row?.audit}
          closeHref={closeHref}
          saveBlocked={data.frozen}
        />
      </DialogForm>
    </RouteDialog>
  );
}
