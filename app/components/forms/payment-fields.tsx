import type { FieldMetadata } from "@conform-to/react";
import { PAID_BY } from "~/lib/form-fields";
import { PAYMENT_METHOD_LABELS } from "~/lib/labels";
import { DateField, SelectField } from "./fields";

type PaymentFieldsMeta = { paidBy: FieldMetadata<unknown>; paidOn: FieldMetadata<unknown>; paymentKey: FieldMetadata<unknown> };

const PAID_BY_OPTIONS = PAID_BY.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] }));

/**
 * How and when a payment entered in a dialog came in (issue 30: every payment is a journal entry):
 * shown where lowering an open amount or ticking 'Bezahlt' books a payment (the date's
 * label contains neither 'Bezahlt' nor 'Datum': the checkbox's and the invoice date's labels). `paymentKey` is the
 * form's own id from the loader: the server books one entry per form however often it is sent.
 * Without JavaScript the fields are always there; `hidden` hides them while nothing is paid.
 */
export function PaymentFields({
  fields,
  paymentKey,
  hidden,
  dateLabel = "Gezahlt am (leer: heute)",
  className = "col-span-2 grid grid-cols-2 gap-3",
}: {
  fields: PaymentFieldsMeta;
  paymentKey: string;
  hidden?: boolean;
  /** The date's label: when the money came in (or, for a refund, went out). */
  dateLabel?: string;
  className?: string;
}) {
  return (
    <div className={className} hidden={hidden}>
      <input type="hidden" name={fields.paymentKey.name} value={paymentKey} />
      <SelectField meta={fields.paidBy} label="Zahlungsart" options={PAID_BY_OPTIONS} />
      <DateField meta={fields.paidOn} label={dateLabel} />
    </div>
  );
}
