import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { MoneyField, NumberField, SelectField, TextAreaField, TextField, RecordKeys } from "~/components/forms/fields";
import { COURSE_STATUS_LABELS, DURATION_MODEL_LABELS, PRICING_MODEL_LABELS } from "~/lib/labels";
import type { CourseDialogData, CourseFormRecord } from "./dialog.server";
import { courseSchema, type CourseFormValues } from "./schema";

const choices = (labels: Record<string, string>) => Object.entries(labels).map(([value, label]) => ({ value, label }));
const options = (list: { id: number; label: string }[]) => list.map((option) => ({ value: option.id, label: option.label }));

/** 'Neuen Kurs hinzufügen' (or for a course type, prefilled from it) and 'Kurs bearbeiten'. */
export default function CourseDialog({ data, actionData, closeHref }: DialogProps<CourseDialogData>) {
  const course = (actionData?.current as CourseFormRecord | undefined) ?? data.course;
  const [form, fields] = useRecordForm<CourseFormValues>(courseSchema, {
    name: "course",
    record: course,
    values: course ?? data.defaults,
    lastResult: actionData?.result,
  });
  const title = course ? "Kurs bearbeiten" : data.master ? `Neuen Kurs für Kurs-Typ '${data.master}' hinzufügen` : "Neuen Kurs hinzufügen";
  return (
    <RouteDialog title={title} closeHref={closeHref}>
      <DialogForm intent="course:save" {...getFormProps(form)}>
        <RecordKeys record={course} />
        <div className="grid grid-cols-2 gap-3">
          <TextField meta={fields.name} label="Name" className="col-span-2" />
          <NumberField meta={fields.startYear} label="Jahr" />
          <TextField meta={fields.webTimeInformation} label="Zeit (Text für die Webseite)" />
          <SelectField meta={fields.trainerId} label="Trainer" options={options(data.trainers)} placeholder="(kein Trainer)" />
          <SelectField meta={fields.cotrainerId} label="Co-Trainer" options={options(data.trainers)} placeholder="(kein Co-Trainer)" />
          <TextField meta={fields.startDateTime} label="Beginn" placeholder="TT.MM.JJJJ HH:MM" />
          <SelectField meta={fields.statusCode} label="Status" options={choices(COURSE_STATUS_LABELS)} />
          <NumberField meta={fields.maxDogs} label="Max. Hunde" />
          <NumberField meta={fields.nrOfSessions} label="Termine (geplant)" />
          <MoneyField meta={fields.costFull} label="Preis Nichtmitglieder" />
          <MoneyField meta={fields.costReduced1} label="Preis ermäßigt 1" />
          <MoneyField meta={fields.costReduced2} label="Preis ermäßigt 2" />
          <SelectField meta={fields.pricingModel} label="Preismodell" options={choices(PRICING_MODEL_LABELS)} />
          <SelectField meta={fields.durationModel} label="Dauer" options={choices(DURATION_MODEL_LABELS)} />
          <SelectField meta={fields.locationId} label="Ort" options={options(data.locations)} placeholder="(kein Ort)" />
          <SelectField meta={fields.courseMasterId} label="Kurs-Typ" options={options(data.masters)} placeholder="(kein Kurs-Typ)" className="col-span-2" />
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={course?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
