import type { FieldMetadata } from "@conform-to/react";
import { DateField, SelectField } from "./fields";

type PaymentFieldsMeta = { paidBy: FieldMetadata<unknown>; paidOn: FieldMetadata<unknown>; paymentKey: FieldMetadata<unknown> };

const PAID_BY_OPTIONS = [
  { value: "TRANSFER", label: "Überweisung" },
  { value: "CASH", label: "Bar" },
];

/**
 * How and when a payment entered in a dialog came in (issue 30: every payment is a journal entry):
 * shown where lowering an open amount or ticking 'Bezahlt' books a payment. `paymentKey` is the
 * form's own id from the loader: the server books one entry per form however often it is sent.
 * Without JavaScript the fields are always there; `hidden` hides them while nothing is paid.
 */
export function PaymentFields({
  fields,
  paymentKey,
  hidden,
  className = "col-span-2 grid grid-cols-2 gap-3",
}: {
  fields: PaymentFieldsMeta;
  paymentKey: string;
  hidden?: boolean;
  className?: string;
}) {
  return (
    <div className={className} hidden={hidden}>
      <input type="hidden" name={fields.paymentKey.name} value={paymentKey} />
      <SelectField meta={fields.paidBy} label="Zahlungsart" options={PAID_BY_OPTIONS} />
      <DateField meta={fields.paidOn} label="Bezahlt am (leer: heute)" />
    </div>
  );
}
