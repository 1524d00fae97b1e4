import { getFormProps } from "@conform-to/react";
import { Link, useLocation } from "@remix-run/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { CheckboxField, DateField, SelectField, TextAreaField, TextField, RecordKeys } from "~/components/forms/fields";
import type { PersonDialogData, PersonFormRecord } from "./dialog.server";
import { personSchema, type PersonFormValues } from "./schema";

/** 'Person hinzufügen' and 'Person {name} bearbeiten'. */
export default function PersonDialog({ data, actionData, closeHref }: DialogProps<PersonDialogData>) {
  // A conflict answers with the current record: the form starts over from it.
  const person = (actionData?.current as PersonFormRecord | undefined) ?? data.person;
  const [form, fields] = useRecordForm<PersonFormValues>(personSchema, {
    name: "person",
    record: person,
    values: person ?? { memberTypeId: "", isMember: false },
    lastResult: actionData?.result,
  });
  const title = person ? `Person ${person.fullName} bearbeiten` : "Person hinzufügen";
  return (
    <RouteDialog title={title} closeHref={closeHref} width={640}>
      <DialogForm intent="person:save" {...getFormProps(form)}>
        <RecordKeys record={person} />
        <div className="grid grid-cols-2 gap-3">
          <SelectField
            meta={fields.salutation}
            label="Anrede"
            options={[
              { value: "Herr", label: "Herr" },
              { value: "Frau", label: "Frau" },
            ]}
            placeholder="–"
          />
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
          <SelectField
            meta={fields.memberTypeId}
            label="Mitgliedsart"
            options={data.options.memberTypes.map((type) => ({ value: type.id, label: type.name }))}
            placeholder="Bitte wählen"
          />
          <SelectField
            meta={fields.membershipStatusId}
            label="Mitgliedsstatus"
            options={data.options.membershipStatuses.map((status) => ({ value: status.id, label: status.name }))}
            placeholder="–"
          />
          {data.withProtected && (
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
            <CheckboxField meta={fields.isBusiness} label="Unternehmer" />
            {data.withProtected && <CheckboxField meta={fields.hasGdpr} label="DSGVO-Einwilligung" />}
          </div>
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        {person && data.consent && <ConsentHistory entries={data.consent} />}
        {person && <MandateLine data={data} personId={person.id} />}
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={person?.audit} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}

/** The history of the GDPR consent (ADMIN and GDPR): given or withdrawn, when, by whom, how. */
function ConsentHistory({ entries }: { entries: NonNullable<PersonDialogData["consent"]> }) {
  return (
    <div className="mt-3 rounded border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="person-consent">
      <p className="font-medium text-slate-700">DSGVO-Einwilligung</p>
      {entries.length === 0 ? (
        <p className="text-slate-600">Keine Einwilligung aufgezeichnet.</p>
      ) : (
        <ul className="text-slate-600">
          {entries.map((entry, index) => (
            <li
              key={index}
            >{`Einwilligung ${entry.given ? "erteilt" : "widerrufen"} am ${entry.when} von ${entry.who}${entry.source ? ` über ${entry.source}` : ""}`}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The person's SEPA mandate: reference and IBAN (masked by the server unless ADMIN or FINANCE),
 *  and for those two the link into the mandate dialog. */
function MandateLine({ data, personId }: { data: PersonDialogData; personId: number }) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  search.set("dialog", "mandate-person");
  search.set("dialogId", String(personId));
  const mandate = data.mandate;
  if (!mandate && !data.mayEditMandate) return null;
  return (
    <p className="mt-3 flex flex-wrap items-baseline gap-x-3 rounded border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="person-mandate">
      <span className="font-medium text-slate-700">SEPA-Mandat:</span>
      {mandate ? (
        <>
          <span>{mandate.reference}</span>
          <span className="font-mono">{mandate.iban}</span>
        </>
      ) : (
        <span>keines</span>
      )}
      {data.mayEditMandate && (
        <Link to={`${location.pathname}?${search}`} className="text-wuff-700 underline">
          {mandate ? "Mandat bearbeiten" : "Mandat anlegen"}
        </Link>
      )}
    </p>
  );
}
