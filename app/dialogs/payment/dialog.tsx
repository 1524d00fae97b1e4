import { getFormProps } from "@conform-to/react";
import { DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { FormErrors, MoneyField, RecordKeys } from "~/components/forms/fields";
import { PaymentFields } from "~/components/forms/payment-fields";
import { useRecordForm } from "~/components/forms/record-form";
import type { RefundDialogData } from "./dialog.server";
import { refundSchema, type RefundFormValues } from "./schema";

/**
 * 'Guthaben erstatten' (issue 30): pays out the person's credit, or part of it, as an entry going
 * out of the journal (Überweisung or Bar, on the day given). The other views of the payment
 * dialogs are the kit's confirmations.
 */
export default function PaymentDialog({ data, actionData, closeHref }: DialogProps<RefundDialogData>) {
  const [form, fields] = useRecordForm<RefundFormValues>(refundSchema, {
    name: "refund",
    record: data.payment,
    values: data.values,
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title={`Guthaben von ${data.payment.personName} erstatten`} closeHref={closeHref}>
      <DialogForm intent="payment:refund" {...getFormProps(form)}>
        <RecordKeys record={data.payment} />
        <p className="mb-3 text-sm text-slate-700">
          Guthaben: <span className="tabular-nums">{data.payment.credit}</span>. Die Erstattung wird als Zahlungsausgang gebucht; das Guthaben sinkt um den
          Betrag.
        </p>
        <div className="grid grid-cols-2 gap-3">
          <MoneyField meta={fields.amount} label="Betrag" className="col-span-2" />
          <PaymentFields fields={fields} paymentKey={data.paymentKey} dateLabel="Erstattet am (leer: heute)" />
        </div>
        <FormErrors errors={[...(form.errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} id={form.errorId} />
        <DialogButtons submitLabel="Erstatten" closeHref={closeHref} disabled={data.refusal !== null} reason={data.refusal} />
      </DialogForm>
    </RouteDialog>
  );
}
