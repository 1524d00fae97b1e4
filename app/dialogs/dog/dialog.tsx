import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { CheckboxField, DateField, LookupSearch, LookupSelect, SelectField, TextAreaField, TextField, RecordKeys } from "~/components/forms/fields";
import { DOG_GENDER_LABELS } from "~/lib/labels";
import type { DogDialogData, DogFormRecord } from "./dialog.server";
import { dogSchema, type DogFormValues } from "./schema";

/** 'Hund hinzufügen' and 'Hund {name} bearbeiten'. */
export default function DogDialog({ data, actionData, closeHref }: DialogProps<DogDialogData>) {
  const dog = (actionData?.current as DogFormRecord | undefined) ?? data.dog;
  const [form, fields] = useRecordForm<DogFormValues>(dogSchema, {
    name: "dog",
    record: dog,
    values: dog ?? { ownerId: data.ownerId ?? "", gender: "" },
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title={dog ? `Hund ${dog.commonName} bearbeiten` : "Hund hinzufügen"} closeHref={closeHref}>
      <LookupSearch field="ownerId" label="Besitzer suchen" term={data.ownerSearch} />
      <DialogForm intent="dog:save" {...getFormProps(form)}>
        <RecordKeys record={dog} />
        <div className="grid grid-cols-2 gap-3">
          <LookupSelect meta={fields.ownerId} label="Besitzer" options={data.owners} emptyHint="Erst Besitzer suchen" />
          <TextField meta={fields.commonName} label="Name" />
          <TextField meta={fields.breed} label="Rasse" />
          <SelectField
            meta={fields.gender}
            label="Geschlecht"
            options={[1, 2, 0].map((code) => ({ value: code, label: DOG_GENDER_LABELS[code] }))}
            placeholder="Bitte wählen"
          />
          <DateField meta={fields.dateOfBirth} label="Wurftag" />
          <DateField meta={fields.rabiesValidUntil} label="Tollwut bis" />
          <TextField meta={fields.chipNr} label="Chip Nr" />
          <TextField meta={fields.insuranceCompany} label="Haftpflicht: Versicherung" />
          <TextField meta={fields.insurancePolicyNr} label="Haftpflicht: Versicherungs-Nr" />
          <DateField meta={fields.insuranceValidUntil} label="Haftpflicht bis" />
          <TextField meta={fields.zuchtBuchNr} label="Zuchtbuch Nr" />
          <CheckboxField meta={fields.archived} label="Archiviert" className="self-end" />
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={dog?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
