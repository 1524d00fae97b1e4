import { getFormProps } from "@conform-to/react";
import { DialogAlert, DialogButtons, DialogLink, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { FormErrors, MoneyField, TextField } from "~/components/forms/fields";
import { useRecordForm } from "~/components/forms/record-form";
import type { AttendanceSettlementDialogData } from "./dialog.server";
import { chargeSchema, waiveSchema, type ChargeFormValues, type WaiveFormValues } from "./schema";

/**
 * 'Teilnahme ohne Karte erledigen': three ways, each its own small form (so each works without
 * JavaScript and validates only its own field): a card sold, a single visit charged, or waived.
 */
export default function AttendanceSettlementDialog({ data, actionData, closeHref }: DialogProps<AttendanceSettlementDialogData>) {
  const { attendance } = data;
  const [chargeForm, chargeFields] = useRecordForm<ChargeFormValues>(chargeSchema, {
    name: "settlementCharge",
    record: null,
    values: data.charge,
    lastResult: actionData?.result,
  });
  const [waiveForm, waiveFields] = useRecordForm<WaiveFormValues>(waiveSchema, {
    name: "settlementWaive",
    record: null,
    values: { id: attendance.id },
    lastResult: actionData?.result,
  });
  const section = "mt-4 border-t border-slate-200 pt-3";
  return (
    <RouteDialog title="Teilnahme ohne Karte erledigen" closeHref={closeHref}>
      <p className="text-sm text-slate-700">{`${attendance.personName}: ${attendance.courseName} am ${attendance.day}, ohne gültige Karte oder Abo.`}</p>
      <DialogAlert message={data.refusal ?? actionData?.error} />
      <h3 className={`${section} text-sm font-semibold`}>Karte verkaufen</h3>
      <p className="text-sm text-slate-700">
        Eine neue Karte übernimmt diese Teilnahme (und frühere ohne Karte in ihrer Gültigkeit).{" "}
        <DialogLink
          className="text-blue-700 underline"
          to={`/people/${attendance.personId}/cards?dialog=card-add&dialogParent=PERSON%3A${attendance.personId}`}
        >
          Karte verkaufen …
        </DialogLink>
      </p>
      <h3 className={`${section} text-sm font-semibold`}>Einzelstunde berechnen</h3>
      <DialogForm intent="attendanceSettlement:charge" {...getFormProps(chargeForm)}>
        <input type="hidden" name={chargeFields.id.name} value={attendance.id} />
        <MoneyField meta={chargeFields.amount} label="Preis der Einzelstunde" />
        <FormErrors errors={chargeForm.errors} id={chargeForm.errorId} />
        <DialogButtons submitLabel="Einzelstunde berechnen" closeHref={closeHref} disabled={data.refusal !== null} reason={data.refusal} />
      </DialogForm>
      <h3 className={`${section} text-sm font-semibold`}>Erlassen</h3>
      <DialogForm intent="attendanceSettlement:waive" {...getFormProps(waiveForm)}>
        <input type="hidden" name={waiveFields.id.name} value={attendance.id} />
        <TextField meta={waiveFields.note} label="Grund" />
        <FormErrors errors={waiveForm.errors} id={waiveForm.errorId} />
        <DialogButtons submitLabel="Erlassen" closeHref={closeHref} disabled={data.refusal !== null} reason={data.refusal} />
      </DialogForm>
    </RouteDialog>
  );
}
