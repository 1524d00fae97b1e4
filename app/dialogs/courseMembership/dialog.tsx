import { getFormProps } from "@conform-to/react";
import type { ChangeEvent, MouseEvent } from "react";
import { useRecordForm } from "~/components/forms/record-form";
import { DialogAlert, RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, useDraftSubmit, type DialogProps } from "~/components/dialog-form";
import { CheckboxField, LockedField, LookupSearch, LookupSelect, MoneyField, SelectField, TextAreaField, RecordKeys } from "~/components/forms/fields";
import { useSaveGate } from "~/components/forms/save-gate";
import { PaymentFields } from "~/components/forms/payment-fields";
import { useHydrated } from "~/components/use-hydrated";
import { CAPACITY_CHOICES } from "~/lib/capacity";
import type { MembershipDialogData, MembershipFormRecord } from "./dialog.server";
import type { WaitlistEntry } from "~/models/waitlist.server";
import { formatDateTime } from "~/lib/format";
import { MEMBERSHIP_LABELS, membershipSchema, transferSchema, type MembershipFormValues, type TransferFormValues } from "./schema";

type TransferData = { transfer: { id: number; person: string; dog: string; course: string; courses: { id: number; label: string }[] } };
type WaitlistData = { waitlist: { courseName: string; entries: WaitlistEntry[] } };

/** 'Teilnehmer hinzufügen' / 'Teilnehmer bearbeiten', 'Teilnehmer transferieren', and the course's Warteliste. */
export default function CourseMembershipDialog(props: DialogProps<MembershipDialogData | TransferData | WaitlistData>) {
  if (props.view === "transfer") return <TransferDialog {...(props as DialogProps<TransferData>)} />;
  if (props.view === "waitlist") return <WaitlistDialog {...(props as DialogProps<WaitlistData>)} />;
  return <MembershipDialog {...(props as DialogProps<MembershipDialogData>)} />;
}

const CAPACITY_SAVE_BLOCKED = `Der Kurs ist voll: bitte „${CAPACITY_CHOICES.book}“ oder „${CAPACITY_CHOICES.waitlist}“ wählen.`;

const yesNo = (value: boolean | null) => (value === null ? "–" : value ? "ja" : "nein");

function MembershipDialog({ data, actionData, closeHref }: DialogProps<MembershipDialogData>) {
  const hydrated = useHydrated();
  const choose = useDraftSubmit();
  const gate = useSaveGate(membershipSchema, MEMBERSHIP_LABELS);
  const current = actionData?.current as MembershipFormRecord | undefined;
  const membership = current ?? data.membership;
  const values = current ? { ...current, pricedFor: data.values.pricedFor, allDogs: data.values.allDogs } : data.values;
  const [form, fields] = useRecordForm<MembershipFormValues>(membershipSchema, {
    name: "courseMembership",
    record: membership,
    values: values,
    lastResult: actionData?.result,
    version: current ? "current" : data.valuesKey,
  });
  const courseLabel = data.courses.find((course) => String(course.id) === values.courseId)?.label ?? membership?.courseName ?? "";
  const hasPerson = Boolean(values.personId);
  // With JavaScript a new course, person or dog brings its choices at once (dogs, price, proofs).
  const onChoice = (event: ChangeEvent<HTMLDivElement>) => {
    const name = (event.target as HTMLElement).getAttribute("name");
    if (hydrated && (name === fields.courseId.name || name === fields.personId.name || name === fields.dogId.name)) choose(event.currentTarget.closest("form"));
  };
  const showAllDogs = (event: MouseEvent<HTMLButtonElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    choose(event.currentTarget.form, "allDogs");
  };

  return (
    <RouteDialog title={membership ? "Teilnehmer bearbeiten" : "Teilnehmer hinzufügen"} closeHref={closeHref} height="80vh">
      <LookupSearch field="personId" label="Teilnehmer suchen" term={data.personSearch} />
      {data.allDogs && <LookupSearch field="dogId" label="Hund suchen" term={data.dogSearch} />}
      {/* New values (a draft) give a new form: its fields and Speichern's check start from them. */}
      <DialogForm key={form.id} intent="courseMembership:save" {...getFormProps(form)} formRef={gate.form} onInput={gate.check} onChange={gate.check}>
        <RecordKeys record={membership} />
        <input type="hidden" name="pricedFor" value={values.pricedFor ?? ""} />
        <input type="hidden" name="allDogs" value={values.allDogs ?? ""} />
        <div className="grid grid-cols-2 gap-3" onChange={onChoice}>
          {data.courseLocked ? (
            <LockedField name={fields.courseId.name} label="Kurs" id={Number(values.courseId) || null} text={courseLabel} />
          ) : (
            <SelectField
              meta={fields.courseId}
              label="Kurs"
              className="col-span-2"
              options={data.courses.map((course) => ({ value: course.id, label: course.label }))}
              placeholder="Bitte wählen"
            />
          )}
          <LookupSelect meta={fields.personId} label="Teilnehmer" options={data.people} emptyHint="Erst Teilnehmer suchen" />
          <div className="col-span-2 flex items-end gap-2">
            <LookupSelect
              meta={fields.dogId}
              label="Hund"
              className="flex-1"
              options={data.dogs}
              emptyHint={hasPerson || data.allDogs ? "Kein Hund gefunden" : "Erst Teilnehmer wählen"}
              disabled={hydrated && !hasPerson && !data.allDogs}
            />
            {!data.allDogs && (
              <button
                type="submit"
                name="choose"
                value="allDogs"
                formNoValidate
                onClick={showAllDogs}
                className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50"
              >
                Alle Hunde anzeigen
              </button>
            )}
          </div>
          {!hydrated && (
            <p className="col-span-2 flex items-center justify-between gap-2 rounded bg-slate-50 p-2 text-sm text-slate-700">
              Nach der Wahl von Kurs, Teilnehmer oder Hund zeigt „Übernehmen“ die Hunde, den Preis und die Nachweise dazu.
              <button
                type="submit"
                name="choose"
                value="1"
                formNoValidate
                className="shrink-0 rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50"
              >
                Übernehmen
              </button>
            </p>
          )}
          <MoneyField meta={fields.amount} label="Betrag" />
          <SelectField
            meta={fields.statusId}
            label="Status"
            options={data.statuses.map((status) => ({ value: status.id, label: status.label }))}
            placeholder="Bitte wählen"
          />
          <CheckboxField meta={fields.isPaid} label="Bezahlt" className="col-span-2" />
          {/* Ticking 'Bezahlt' books a payment: how and when it came in. */}
          <PaymentFields fields={fields} paymentKey={data.paymentKey} hidden={hydrated && !(fields.isPaid.value === "on" && membership?.isPaid !== "on")} />
          <dl className="col-span-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded bg-slate-50 p-2 text-sm text-slate-700" aria-label="Wird übernommen">
            <dt>Preis laut Kurs</dt>
            <dd>{data.copied.price ?? "–"}</dd>
            <dt>Tollwut bis</dt>
            <dd>{data.copied.rabiesValidUntil ?? "–"}</dd>
            <dt>Versichert</dt>
            <dd>{yesNo(data.copied.hasInsurance)}</dd>
            {data.copied.hasGdpr !== null && (
              <>
                <dt>DSGVO</dt>
                <dd>{yesNo(data.copied.hasGdpr)}</dd>
              </>
            )}
          </dl>
          {data.capacity && (
            <div role="alert" className="col-span-2 rounded border border-red-300 bg-red-50 p-2 text-sm text-red-700" aria-label="Kurs voll">
              <p className="font-semibold">{data.capacity.warning}</p>
              <div className="mt-2 flex flex-wrap gap-2">
                <button
                  type="submit"
                  name="capacity"
                  value="book"
                  disabled={hydrated && gate.reason !== null}
                  className="rounded bg-red-700 px-3 py-1.5 font-medium text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-50"
                >
                  {CAPACITY_CHOICES.book}
                </button>
                {data.capacity.waitlist && (
                  <button
                    type="submit"
                    name="capacity"
                    value="waitlist"
                    disabled={hydrated && gate.reason !== null}
                    className="rounded border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
                  >
                    {CAPACITY_CHOICES.waitlist}
                  </button>
                )}
              </div>
            </div>
          )}
          {data.warnings.length > 0 && (
            <ul
              className="col-span-2 list-disc rounded border border-red-300 bg-red-50 py-2 pl-6 pr-2 text-sm font-semibold text-red-700"
              aria-label="Hinweise"
            >
              {data.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          )}
          {data.onlineBookings.length > 0 && (
            <ul className="col-span-2 rounded border border-slate-200 bg-slate-50 px-2 py-1 text-sm text-slate-700" aria-label="Online-Buchung">
              {data.onlineBookings.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          <TextAreaField meta={fields.comments} label="Bemerkungen" className="col-span-2" />
          <TextAreaField meta={fields.personComments} label="Anmerkung Teilnehmer" />
          <TextAreaField meta={fields.dogComments} label="Anmerkung Hund" />
        </div>
        <RecordFormFooter
          errors={[...(form.errors ?? []), ...(data.error ? [data.error] : [])]}
          errorId={form.errorId}
          actionData={actionData}
          audit={membership?.audit}
          closeHref={closeHref}
          saveBlocked={(hydrated ? gate.reason : null) ?? (data.capacity ? CAPACITY_SAVE_BLOCKED : null)}
        />
      </DialogForm>
    </RouteDialog>
  );
}

/** 'Teilnehmer transferieren': the membership moves into another course; its fee text follows. */
function TransferDialog({ data, actionData, closeHref }: DialogProps<TransferData>) {
  const { transfer } = data;
  const [form, fields] = useRecordForm<TransferFormValues>(transferSchema, {
    name: "courseMembership-transfer",
    record: null,
    values: { id: transfer.id },
    lastResult: actionData?.result,
    version: String(transfer.id),
  });
  return (
    <RouteDialog title="Teilnehmer transferieren" closeHref={closeHref}>
      <DialogForm intent="courseMembership:transfer" {...getFormProps(form)}>
        <input type="hidden" name={fields.id.name} value={transfer.id} />
        <p className="mb-3 text-sm text-slate-700">
          {transfer.person} mit {transfer.dog}, bisher in Kurs &apos;{transfer.course}&apos;
        </p>
        <SelectField
          meta={fields.targetCourseId}
          label="versetzen in Kurs"
          options={transfer.courses.map((course) => ({ value: course.id, label: course.label }))}
          placeholder="Bitte wählen"
        />
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}

/**
 * The course's waiting list in order (issue 33 item 3): who waits, with which dog, whether a freed
 * place is offered and until when; each entry moves a place up or down.
 */
function WaitlistDialog({ data, actionData, closeHref }: DialogProps<WaitlistData>) {
  const { waitlist } = data;
  return (
    <RouteDialog title={`Warteliste für '${waitlist.courseName}'`} closeHref={closeHref}>
      {waitlist.entries.length === 0 ? (
        <p className="text-sm text-slate-700">Niemand steht auf der Warteliste.</p>
      ) : (
        <ol className="space-y-2 text-sm" aria-label="Warteliste">
          {waitlist.entries.map((entry, index) => (
            <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 px-2 py-1">
              <span>
                {entry.position}. {entry.person} mit {entry.dog}
                {entry.offeredUntil && <span className="text-emerald-800"> – Platz angeboten bis {formatDateTime(entry.offeredUntil)}</span>}
              </span>
              <DialogForm intent="courseMembership:waitlistMove" className="flex gap-1">
                <input type="hidden" name="id" value={entry.id} />
                <button
                  type="submit"
                  name="direction"
                  value="up"
                  disabled={index === 0}
                  aria-label={`${entry.person} mit ${entry.dog} nach oben`}
                  className="rounded border border-slate-300 px-2 disabled:opacity-40"
                >
                  ↑
                </button>
                <button
                  type="submit"
                  name="direction"
                  value="down"
                  disabled={index === waitlist.entries.length - 1}
                  aria-label={`${entry.person} mit ${entry.dog} nach unten`}
                  className="rounded border border-slate-300 px-2 disabled:opacity-40"
                >
                  ↓
                </button>
              </DialogForm>
            </li>
          ))}
        </ol>
      )}
      <p className="mt-3 text-sm text-slate-600">Wird ein Platz frei, bietet Wuff ihn dem Ersten ohne Angebot per Mail an (Kurs-Typen mit Online-Buchung).</p>
      <DialogAlert message={actionData?.error} />
    </RouteDialog>
  );
}
