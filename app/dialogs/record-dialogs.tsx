import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useLocation } from "@remix-run/react";
import { ConfirmDialog, DialogButtons, RouteDialog } from "~/components/dialog";
import { dogSchema, type DogFormValues } from "~/components/forms/dog-schema";
import { AuditBlock, CheckboxField, DateField, FormErrors, SelectField, TextAreaField, TextField } from "~/components/forms/fields";
import { personSchema, type PersonFormValues } from "~/components/forms/person-schema";
import { formatDate } from "~/lib/format";
import { DOG_GENDER_LABELS } from "~/lib/labels";
import type { DogRecord } from "~/models/dogs.server";
import type { PersonRecord } from "~/models/people.server";
import { closedHref } from "./dialog-params";
import type { DogDialogData, PersonDialogData, RecordDialogData } from "./records.server";

/** What the dialog actions answer when they do not redirect. */
export type RecordDialogActionData =
  | { result?: SubmissionResult<string[]>; conflict?: string; currentPerson?: PersonRecord; currentDog?: DogRecord; deleteError?: string }
  | undefined;

/** Renders the person or dog dialog the URL names, over the screen it is opened on. */
export function RecordDialogs({ dialog, actionData }: { dialog: RecordDialogData | undefined; actionData: RecordDialogActionData }) {
  const location = useLocation();
  if (!dialog) return null;
  const closeHref = closedHref(location.pathname, location.search);
  switch (dialog.kind) {
    case "person-add":
    case "person-edit":
      return <PersonDialog dialog={dialog} closeHref={closeHref} actionData={actionData} />;
    case "person-delete":
      return (
        <DeleteDialog
          title={`Person ${dialog.person!.lastName} ${dialog.person!.firstName} löschen`}
          closeHref={closeHref}
          intent="person-delete"
          id={dialog.person!.id}
          error={actionData?.deleteError}
        />
      );
    case "dog-add":
    case "dog-edit":
      return <DogDialog dialog={dialog} closeHref={closeHref} actionData={actionData} />;
    case "dog-delete":
      return <DeleteDialog title={`Hund ${dialog.dog!.commonName} löschen`} closeHref={closeHref} intent="dog-delete" id={dialog.dog!.id} error={actionData?.deleteError} />;
  }
}

function DeleteDialog({ title, closeHref, intent, id, error }: { title: string; closeHref: string; intent: string; id: number; error?: string }) {
  return (
    <>
      <ConfirmDialog title={title} closeHref={closeHref} intent={intent} confirmLabel="Löschen" hidden={{ id }} />
      {error && (
        <div role="alert" className="fixed inset-x-0 bottom-6 z-[60] mx-auto w-fit max-w-lg rounded border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 shadow">
          {error}
        </div>
      )}
    </>
  );
}

/** Form values as the inputs show them: German dates, ids and flags. */
function personDefaults(person: PersonRecord | null) {
  if (!person) return { memberTypeId: "", isMember: false };
  return {
    ...person,
    dateOfBirth: formatDate(person.dateOfBirth),
    memberSince: formatDate(person.memberSince),
    memberUntil: formatDate(person.memberUntil),
  };
}

function PersonDialog({ dialog, closeHref, actionData }: { dialog: PersonDialogData; closeHref: string; actionData: RecordDialogActionData }) {
  const person = actionData?.currentPerson ?? dialog.person;
  const [form, fields] = useForm<PersonFormValues>({
    // A conflict answers with the current record: the form starts over from it.
    id: `person-${person?.id ?? "new"}-${person?.rowVersion ?? 0}`,
    lastResult: actionData?.result,
    defaultValue: personDefaults(person) as Record<string, unknown>,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: personSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const title = person ? `Person ${person.fullName} bearbeiten` : "Person hinzufügen";
  return (
    <RouteDialog title={title} closeHref={closeHref} width={640}>
      <Form method="post" preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name="intent" value="person-save" />
        {person && <input type="hidden" name={fields.id.name} value={person.id} />}
        {person && <input type="hidden" name={fields.rowVersion.name} value={person.rowVersion} />}
        <div className="grid grid-cols-2 gap-3">
          <SelectField meta={fields.salutation} label="Anrede" options={[{ value: "Herr", label: "Herr" }, { value: "Frau", label: "Frau" }]} placeholder="–" />
          <TextField meta={fields.title} label="Titel" />
          <TextField meta={fields.firstName} label="Vorname" />
          <TextField meta={fields.lastName} label="Nachname" />
          <TextField meta={fields.streetNumber} label="Straße und Hausnummer" className="col-span-2" />
          <TextField meta={fields.zip} label="PLZ" />
          <TextField meta={fields.city} label="Ort" />
          <TextField meta={fields.email} label="E-Mail" type="email" className="col-span-2" />
          <TextField meta={fields.homePhone} label="Telefon" type="tel" />
          <TextField meta={fields.mobilePhone} label="Mobil" type="tel" />
          <DateField meta={fields.dateOfBirth} label="Geburtstag" />
          <TextField meta={fields.hsvrmNr} label="HSVRM-Nr" />
          <SelectField meta={fields.memberTypeId} label="Mitgliedsart" options={dialog.options.memberTypes.map((type) => ({ value: type.id, label: type.name }))} placeholder="Bitte wählen" />
          <SelectField meta={fields.membershipStatusId} label="Mitgliedsstatus" options={dialog.options.membershipStatuses.map((status) => ({ value: status.id, label: status.name }))} placeholder="–" />
          {dialog.withProtected && (
            <>
              <DateField meta={fields.memberSince} label="Mitglied seit" />
              <DateField meta={fields.memberUntil} label="Mitglied bis" />
            </>
          )}
          <div className="col-span-2 grid grid-cols-3 gap-2">
            <CheckboxField meta={fields.isMember} label="Mitglied" />
            <CheckboxField meta={fields.isVorstand} label="Vorstand" />
            <CheckboxField meta={fields.isTrainer} label="Trainer" />
            <CheckboxField meta={fields.hasInsurance} label="Versichert" />
            {dialog.withProtected && <CheckboxField meta={fields.hasGdpr} label="DSGVO-Einwilligung" />}
          </div>
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <FormErrors errors={form.errors} conflict={actionData?.conflict} id={form.errorId} />
        {person && <AuditBlock audit={person} />}
        <DialogButtons submitLabel="Speichern" closeHref={closeHref} />
      </Form>
    </RouteDialog>
  );
}

function dogDefaults(dog: DogRecord | null, ownerId: number | undefined) {
  if (!dog) return { ownerId: ownerId ?? "", gender: "" };
  return { ...dog, dateOfBirth: formatDate(dog.dateOfBirth), rabiesValidUntil: formatDate(dog.rabiesValidUntil) };
}

function DogDialog({ dialog, closeHref, actionData }: { dialog: DogDialogData; closeHref: string; actionData: RecordDialogActionData }) {
  const location = useLocation();
  const dog = actionData?.currentDog ?? dialog.dog;
  const [form, fields] = useForm<DogFormValues>({
    id: `dog-${dog?.id ?? "new"}-${dog?.rowVersion ?? 0}`,
    lastResult: actionData?.result,
    defaultValue: dogDefaults(dog, dialog.owner?.id) as Record<string, unknown>,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: dogSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const owners = [...(dialog.owner ? [dialog.owner] : []), ...dialog.owners.filter((owner) => owner.id !== dialog.owner?.id)];
  const searchParams = [...new URLSearchParams(location.search)].filter(([name]) => name !== "ownerSearch");
  return (
    <RouteDialog title={dog ? `Hund ${dog.commonName} bearbeiten` : "Hund hinzufügen"} closeHref={closeHref}>
      {/* Finding the owner is a search of its own (GET), so it works without JavaScript too. */}
      <Form method="get" preventScrollReset replace className="mb-3 flex items-end gap-2" role="search" aria-label="Besitzer suchen">
        {searchParams.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="flex-1">
          <label htmlFor="ownerSearch" className="mb-1 block text-sm font-medium text-slate-700">
            Besitzer suchen
          </label>
          <input id="ownerSearch" name="ownerSearch" defaultValue={dialog.ownerSearch} placeholder="Name" className="block w-full rounded border border-slate-300 px-2 py-1.5 text-sm" />
        </div>
        <button type="submit" className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">
          Suchen
        </button>
      </Form>
      <Form method="post" preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name="intent" value="dog-save" />
        {dog && <input type="hidden" name={fields.id.name} value={dog.id} />}
        {dog && <input type="hidden" name={fields.rowVersion.name} value={dog.rowVersion} />}
        <div className="grid grid-cols-2 gap-3">
          <SelectField
            meta={fields.ownerId}
            label="Besitzer"
            className="col-span-2"
            options={owners.map((owner) => ({ value: owner.id, label: owner.fullName ?? String(owner.id) }))}
            placeholder={owners.length ? "Bitte wählen" : "Erst Besitzer suchen"}
          />
          <TextField meta={fields.commonName} label="Name" />
          <TextField meta={fields.breed} label="Rasse" />
          <SelectField meta={fields.gender} label="Geschlecht" options={[1, 2, 0].map((code) => ({ value: code, label: DOG_GENDER_LABELS[code] }))} placeholder="Bitte wählen" />
          <DateField meta={fields.dateOfBirth} label="Wurftag" />
          <DateField meta={fields.rabiesValidUntil} label="Tollwut bis" />
          <TextField meta={fields.chipNr} label="Chip Nr" />
          <TextField meta={fields.zuchtBuchNr} label="Zuchtbuch Nr" />
          <CheckboxField meta={fields.archived} label="Archiviert" className="self-end" />
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <FormErrors errors={form.errors} conflict={actionData?.conflict} id={form.errorId} />
        {dog && <AuditBlock audit={dog} />}
        <DialogButtons submitLabel="Speichern" closeHref={closeHref} />
      </Form>
    </RouteDialog>
  );
}
