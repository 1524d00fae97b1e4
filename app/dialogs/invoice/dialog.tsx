import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { CheckboxField, DateField, LockedField, MoneyField, RecordKeys, TextAreaField } from "~/components/forms/fields";
import { PaymentFields } from "~/components/forms/payment-fields";
import { useHydrated } from "~/components/use-hydrated";
import InvoiceRowDialog from "../invoiceRow/dialog";
import type { InvoiceRowDialogData } from "../invoiceRow/dialog.server";
import type { InvoiceDialogData, InvoiceFormRecord } from "./dialog.server";
import { invoiceSchema, type InvoiceFormValues } from "./schema";

/**
 * 'Rechnung {number} bearbeiten' (spec 001 §4/§5) or 'Rechnungsentwurf bearbeiten' (issue 30):
 * the person is fixed and the amount is the sum of the rows (both only shown). A draft's date and
 * due date can be changed; nothing is open on it yet. An issued invoice shows its dates locked
 * (they are posted back unchanged; the server refuses any other) and takes its sent date, payment
 * fields and comments. Ist Offen unticked settles it; ticked, the open amount can be typed: with
 * JavaScript the field appears and disappears with the tick, without it the field is always there
 * and the server applies the rule. What the open amount goes down by is a payment, booked in the
 * payment journal with the Zahlungsart and date shown beside it. The view 'addrow' is the row dialog ('Zeile hinzufügen').
 */
export default function InvoiceDialog(props: DialogProps<unknown>) {
  if (props.view === "addrow") return <InvoiceRowDialog {...(props as DialogProps<InvoiceRowDialogData>)} />;
  return <InvoiceEditDialog {...(props as DialogProps<InvoiceDialogData>)} />;
}

function InvoiceEditDialog({ data, actionData, closeHref }: DialogProps<InvoiceDialogData>) {
  const hydrated = useHydrated();
  const invoice = (actionData?.current as InvoiceFormRecord | undefined) ?? data.invoice;
  const [form, fields] = useRecordForm<InvoiceFormValues>(invoiceSchema, { name: "invoice", record: invoice, values: invoice, lastResult: actionData?.result });
  const showOpenAmount = !hydrated || fields.isOpen.value === "on";
  // A payment is entered when the open amount goes down (or 'Ist Offen' is unticked): how and when it came in.
  const paying = !hydrated || fields.isOpen.value !== "on" || fields.openAmount.value !== invoice.openAmount;
  return (
    <RouteDialog title={`${invoice.title} bearbeiten`} closeHref={closeHref}>
      <DialogForm intent="invoice:save" {...getFormProps(form)}>
        <RecordKeys record={invoice} />
        {invoice.issued && (
          <p className="mb-3 rounded border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
            Ausgestellt am {invoice.issuedOn}: Datum, Fälligkeit, Empfänger und Zeilen sind festgeschrieben. Korrigieren lässt sich die Rechnung nur mit einer
            Stornorechnung.
          </p>
        )}
        <div className="grid grid-cols-2 gap-3">
          <LockedField name="personId" label="Person" id={null} text={invoice.personName} />
          {invoice.issued ? (
            <>
              <LockedField name="date" label="Datum" id={null} text={invoice.date} className="" />
              <input type="hidden" name={fields.date.name} value={invoice.date} />
            </>
          ) : (
            <DateField meta={fields.date} label="Datum" />
          )}
          <LockedField name="amount" label="Betrag (Summe der Zeilen)" id={null} text={invoice.amount} className="" />
          {invoice.issued && (
            <>
              <CheckboxField meta={fields.isOpen} label="Ist Offen" className="col-span-2" />
              {showOpenAmount && (
                <MoneyField
                  meta={fields.openAmount}
                  label={hydrated ? "Offener Betrag" : "Offener Betrag (nur wenn „Ist Offen“ angehakt ist)"}
                  className="col-span-2"
                />
              )}
              {invoice.isOpen === "on" && <PaymentFields fields={fields} paymentKey={invoice.paymentKey} hidden={!paying} />}
            </>
          )}
          {invoice.issued ? (
            <>
              <LockedField name="dueDate" label="Fällig am" id={null} text={invoice.dueDate} className="" />
              <input type="hidden" name={fields.dueDate.name} value={invoice.dueDate} />
              <DateField meta={fields.sentDate} label="Versendet am" />
            </>
          ) : (
            <DateField meta={fields.dueDate} label="Fällig am" />
          )}
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
          {invoice.issued && <TextAreaField meta={fields.paymentComments} label="Zahlungskommentar" className="col-span-2" />}
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={invoice.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
