import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { AccountFields, CheckboxField, MoneyField, NumberField, SelectField, TextAreaField, TextField, RecordKeys } from "~/components/forms/fields";
import { TAX_CASE_OPTIONS } from "~/lib/tax";
import type { CourseMasterDialogData, CourseMasterFormRecord } from "./dialog.server";
import { courseMasterSchema, type CourseMasterFormValues } from "./schema";

/** 'Kurs-Typ hinzufügen' and "Kurs-Typ '{name}' bearbeiten". */
export default function CourseMasterDialog({ data, actionData, closeHref }: DialogProps<CourseMasterDialogData>) {
  const master = (actionData?.current as CourseMasterFormRecord | undefined) ?? data.master;
  const [form, fields] = useRecordForm<CourseMasterFormValues>(courseMasterSchema, {
    name: "courseMaster",
    record: master,
    values: master ?? {},
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title={master ? `Kurs-Typ '${master.name}' bearbeiten` : "Kurs-Typ hinzufügen"} closeHref={closeHref}>
      <DialogForm intent="courseMaster:save" {...getFormProps(form)}>
        <RecordKeys record={master} />
        <div className="grid grid-cols-2 gap-3">
          <TextField meta={fields.name} label="Name" className="col-span-2" />
          <NumberField meta={fields.nrOfSessions} label="Termine (geplant)" />
          <NumberField meta={fields.maxDogs} label="Max. Hunde" />
          <MoneyField meta={fields.costFull} label="Preis Nichtmitglieder" className="col-span-2" />
          <MoneyField meta={fields.costReduced1} label="Preis ermäßigt 1" />
          <MoneyField meta={fields.costReduced2} label="Preis ermäßigt 2" />
          <SelectField
            meta={fields.taxCase}
            label="Umsatzsteuer auf die Kursgebühren"
            className="col-span-2"
            options={TAX_CASE_OPTIONS}
            placeholder="wie in den Einstellungen"
          />
          <AccountFields account={fields.accountNumber} sphere={fields.sphere} />
          <TextField
            meta={fields.portalCancelDays}
            label="Stornierung in Mein Wuff bis … Tage vor Kursbeginn"
            className="col-span-2"
            inputMode="numeric"
            placeholder="leer: nicht in Mein Wuff stornierbar"
          />
          <NumberField
            meta={fields.portalCancelFeePercent}
            label="Stornogebühr bei Stornierung in Mein Wuff (% der Kursgebühr, 0: keine)"
            className="col-span-2"
          />
          <fieldset className="col-span-2 grid grid-cols-2 gap-3 border-t border-slate-200 pt-3">
            <legend className="col-span-2 text-sm font-medium text-slate-800">Online-Buchung</legend>
            <CheckboxField meta={fields.onlineBooking} label="Online buchbar (im Kursangebot)" className="col-span-2" />
            <NumberField meta={fields.minDogAgeWeeks} label="Mindestalter des Hundes (Wochen)" />
            <SelectField meta={fields.priorCourseMasterId} label="Vorausgesetzter Kurs" options={data.priorOptions} placeholder="keiner" />
            <CheckboxField meta={fields.requiresRabies} label="Tollwutimpfung erforderlich" />
            <CheckboxField meta={fields.requiresInsurance} label="Haftpflichtversicherung erforderlich" />
            <CheckboxField
              meta={fields.withdrawalRight}
              label="Widerrufsrecht bei Online-Buchung (14 Tage; nicht bei Kursen zu festen Terminen, § 312g Abs. 2 Nr. 9 BGB)"
              className="col-span-2"
            />
          </fieldset>
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={master?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
