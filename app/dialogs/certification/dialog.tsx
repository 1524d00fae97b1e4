import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { DateField, LockedField, LookupSearch, LookupSelect, SelectField, TextAreaField, RecordKeys } from "~/components/forms/fields";
import { useHydrated } from "~/components/use-hydrated";
import type { CertificationDialogData, CertificationFormRecord } from "./dialog.server";
import { certificationSchema, type CertificationFormValues } from "./schema";

/**
 * 'Erfolg hinzufügen' and 'Erfolg bearbeiten'. The chosen master says whether a person, a dog or
 * both are certified: with JavaScript only those fields show; without, both show and the server
 * keeps only what applies.
 */
export default function CertificationDialog({ data, actionData, closeHref }: DialogProps<CertificationDialogData>) {
  const hydrated = useHydrated();
  const certification = (actionData?.current as CertificationFormRecord | undefined) ?? data.certification;
  const [form, fields] = useRecordForm<CertificationFormValues>(certificationSchema, {
    name: "certification",
    record: certification,
    values: certification ?? { ...data.defaults, certificationMasterId: data.masters.length === 1 ? data.masters[0].id : "" },
    lastResult: actionData?.result,
  });
  const master = data.masters.find((candidate) => String(candidate.id) === String(fields.certificationMasterId.value ?? ""));
  const showPerson = !hydrated || !master || master.isPersonCertification;
  const showDog = !hydrated || !master || master.isDogCertification;
  const lockedLabel = (options: { id: number; label: string }[], id: number | null) => options.find((option) => option.id === id)?.label ?? "";

  return (
    <RouteDialog title={certification ? "Erfolg bearbeiten" : "Erfolg hinzufügen"} closeHref={closeHref}>
      {showPerson && !data.locked.person && <LookupSearch field="personId" label="Person suchen" term={data.personSearch} />}
      {showDog && !data.locked.dog && <LookupSearch field="dogId" label="Hund suchen" term={data.dogSearch} />}
      <DialogForm intent="certification:save" {...getFormProps(form)}>
        <RecordKeys record={certification} />
        <div className="grid grid-cols-2 gap-3">
          <SelectField
            meta={fields.certificationMasterId}
            label="Erfolgsart"
            className="col-span-2"
            options={data.masters.map((option) => ({ value: option.id, label: option.name }))}
            placeholder="Bitte wählen"
          />
          {showPerson &&
            (data.locked.person ? (
              <LockedField name={fields.personId.name} label="Person" id={data.defaults.personId} text={lockedLabel(data.people, data.defaults.personId)} />
            ) : (
              <LookupSelect
                meta={fields.personId}
                label={hydrated ? "Person" : "Person (bei Erfolgen von Personen)"}
                options={data.people}
                emptyHint="Erst Person suchen"
              />
            ))}
          {showDog &&
            (data.locked.dog ? (
              <LockedField name={fields.dogId.name} label="Hund" id={data.defaults.dogId} text={lockedLabel(data.dogs, data.defaults.dogId)} />
            ) : (
              <LookupSelect meta={fields.dogId} label={hydrated ? "Hund" : "Hund (bei Erfolgen von Hunden)"} options={data.dogs} emptyHint="Erst Hund suchen" />
            ))}
          <DateField meta={fields.date} label="Datum" />
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={certification?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
