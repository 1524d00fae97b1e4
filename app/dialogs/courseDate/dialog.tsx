import { getFormProps } from "@conform-to/react";
import type { ChangeEvent } from "react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, useDraftSubmit, type DialogProps } from "~/components/dialog-form";
import { CheckboxField, DateField, LockedField, NumberField, RecordKeys, SelectField, TextField } from "~/components/forms/fields";
import { useHydrated } from "~/components/use-hydrated";
import { DURATION_CHOICES, endOf, isDurationChoice, isTimeChoice, MAX_SERIES, TIME_CHOICES, weeklyStarts } from "~/lib/course-dates";
import { formatDate, formatDateTime, parseGermanDate } from "~/lib/format";
import type { CourseDateDialogData, CourseDateFormRecord } from "./dialog.server";
import { courseDateSchema, type CourseDateFormValues } from "./schema";

/** The dates the form would write, and the end of the first (start plus duration); null while incomplete. */
function planned(values: { startDate?: string; startTime?: string; duration?: string; count?: string; skip?: string }, single: boolean) {
  const day = parseGermanDate(values.startDate ?? "");
  if (!day.success || !isTimeChoice(values.startTime ?? "") || !isDurationChoice(values.duration ?? "")) return null;
  const count = single ? 1 : Math.min(MAX_SERIES, Math.max(1, Number(values.count) || 1));
  const skip = (values.skip ?? "")
    .split(/[,;\s]+/)
    .map((part) => parseGermanDate(part))
    .flatMap((parsed) => (parsed.success ? [parsed.value] : []));
  const starts = weeklyStarts(day.value, values.startTime!, count, skip);
  return { starts, end: endOf(starts[0].start, Number(values.duration)) };
}

/** 'Termin hinzufügen' (one date or a weekly series) and 'Termin bearbeiten'. */
export default function CourseDateDialog({ data, actionData, closeHref }: DialogProps<CourseDateDialogData>) {
  const hydrated = useHydrated();
  const choose = useDraftSubmit();
  const current = actionData?.current as CourseDateFormRecord | undefined;
  const date = current ?? data.date;
  const values = current ?? data.values;
  const [form, fields] = useRecordForm<CourseDateFormValues>(courseDateSchema, {
    name: "courseDate",
    record: date,
    values: values,
    lastResult: actionData?.result,
    version: current ? "current" : data.valuesKey,
  });
  const plan = planned(
    {
      startDate: String(fields.startDate.value ?? ""),
      startTime: String(fields.startTime.value ?? ""),
      duration: String(fields.duration.value ?? ""),
      count: String(fields.count.value ?? "1"),
      skip: String(fields.skip.value ?? ""),
    },
    Boolean(date),
  );
  const courseLabel = data.courses.find((course) => String(course.id) === values.courseId)?.label ?? date?.courseName ?? "";
  const onCourse = (event: ChangeEvent<HTMLDivElement>) => {
    if (hydrated && (event.target as HTMLElement).getAttribute("name") === fields.courseId.name) choose(event.currentTarget.closest("form"));
  };
  return (
    <RouteDialog title={date ? "Termin bearbeiten" : "Termin hinzufügen"} closeHref={closeHref}>
      <DialogForm key={form.id} intent="courseDate:save" {...getFormProps(form)}>
        <RecordKeys record={date} />
        <div className="grid grid-cols-2 gap-3">
          {data.courseLocked ? (
            <LockedField name={fields.courseId.name} label="Kurs" id={Number(values.courseId) || null} text={courseLabel} />
          ) : (
            <div className="col-span-2 flex items-end gap-2" onChange={onCourse}>
              <SelectField
                meta={fields.courseId}
                label="Kurs"
                className="flex-1"
                options={data.courses.map((course) => ({ value: course.id, label: course.label }))}
                placeholder="Bitte wählen"
              />
              {!hydrated && (
                <button type="submit" name="choose" value="1" formNoValidate className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">
                  Übernehmen
                </button>
              )}
            </div>
          )}
          <DateField meta={fields.startDate} label="Datum" />
          <SelectField
            meta={fields.startTime}
            label="Uhrzeit"
            options={TIME_CHOICES.map((time) => ({ value: time, label: time }))}
            placeholder="Bitte wählen"
          />
          <SelectField meta={fields.duration} label="Dauer" options={DURATION_CHOICES.map((choice) => ({ value: choice.value, label: choice.label }))} />
          <CheckboxField meta={fields.isAllDay} label="Ganztägig" className="self-end" />
          <p className="col-span-2 text-sm text-slate-700" aria-live="polite">
            Ende: {plan ? formatDateTime(plan.end) : "–"}
          </p>
          <SelectField
            meta={fields.locationId}
            label="Ort"
            className="col-span-2"
            options={data.locations.map((location) => ({ value: location.id, label: location.label }))}
            placeholder="(kein Ort)"
          />
          <TextField meta={fields.comments} label="Kommentar" className="col-span-2" />
          {!date && (
            <fieldset className="col-span-2 grid grid-cols-2 gap-3 rounded border border-slate-200 p-3">
              <legend className="px-1 text-sm font-semibold text-slate-700">Serie: wöchentlich</legend>
              <NumberField meta={fields.count} label="Anzahl Termine" />
              <TextField meta={fields.skip} label="außer am" placeholder="TT.MM.JJJJ, TT.MM.JJJJ" />
              {plan && plan.starts.length > 1 && (
                <p className="col-span-2 text-sm text-slate-700">
                  {plan.starts.length} Termine: {plan.starts.map((start) => formatDate(start.day)).join(", ")}
                </p>
              )}
            </fieldset>
          )}
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={date?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}
