/**
 * Mein Wuff, Kurs buchen (issue 33 item 2): a course of the catalogue booked for one of the
 * person's dogs or a new one. The page says before the button whether it is a place or the waiting
 * list; the server decides again in the batch that books (the last place may have gone meanwhile).
 * The button that books a place says it obliges to pay (§ 312j Abs. 3 BGB); the texts accepted are
 * the versions the page showed, and a newer one published meanwhile stops the booking. Signed out,
 * the page sends to the sign-in and back here. Complete without JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CourseFacts } from "~/components/catalogue";
import { PortalContractTerms, PortalField, PortalNotice, PortalPage, PortalPart, PortalSelect, PortalSubmit } from "~/components/portal";
import { formatDateTime, formatMoney, todayInBerlin } from "~/lib/format";
import { COURSE_BOOKED, COURSE_WAITLISTED, TEXTS_MISSING } from "~/lib/portal";
import { bookingPage, bookOnline, OFFER_GONE } from "~/models/online-bookings.server";
import { openOfferOf } from "~/models/waitlist.server";
import { forgetCatalogue } from "~/services/catalogue.server";
import { clientAddress, mailCourseBooking, optionalPortalSession, requirePortalPerson, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";
import { bookingSchema } from "./schema";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.page.course.name ?? "Kurs"} buchen – Mein Wuff` }];

const NOT_BOOKABLE = "Diesen Kurs gibt es im Kursangebot nicht (mehr).";

const courseIdOf = (value: string | undefined) => (/^[1-9]\d{0,8}$/.test(value ?? "") ? Number(value) : null);

export async function loader(args: LoaderFunctionArgs) {
  const courseId = courseIdOf(args.params.courseId);
  // From the mail of a freed place: the offer for the waiting dog, while it stands.
  const offerId = courseIdOf(new URL(args.request.url).searchParams.get("angebot") ?? undefined);
  // Signed out: to the sign-in, which brings the person back here (with the offer).
  const here = `/mein/buchen/${courseId}${offerId === null ? "" : `?angebot=${offerId}`}`;
  if (!(await optionalPortalSession(args))) throw redirect(courseId === null ? "/mein" : `/mein?weiter=${encodeURIComponent(here)}`);
  const { person } = await requirePortalPerson(args);
  if (courseId === null) throw new Response(NOT_BOOKABLE, { status: 404, statusText: "Nicht gefunden" });
  const now = new Date();
  const page = await bookingPage(args.context.db, person.id, courseId, now);
  if (!page) throw new Response(NOT_BOOKABLE, { status: 404, statusText: "Nicht gefunden" });
  const offer = offerId === null ? null : ((await openOfferOf(args.context.db, person.id, offerId, now)) ?? null);
  if (offerId !== null && (!offer || offer.courseId !== courseId)) {
    throw await redirectWithToast(args.context.cloudflare.env, "/mein/kurse", { type: "error", message: OFFER_GONE });
  }
  return { page, offer };
}

type ActionData = { result: SubmissionResult<string[]>; messages?: string[] };

export async function action(args: ActionFunctionArgs) {
  const { person, actor } = await requirePortalPerson(args);
  const courseId = courseIdOf(args.params.courseId);
  if (courseId === null) throw new Response(NOT_BOOKABLE, { status: 404, statusText: "Nicht gefunden" });
  const { db, cloudflare } = args.context;
  const form = await readForm(args.request);
  const offerId = courseIdOf(String(form.get("offerId") ?? "") || undefined);
  const submission = parseWithZod(form, { schema: bookingSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const value = submission.value;
  if (value.dog === "new" && value.dateOfBirth! > todayInBerlin()) {
    return data<ActionData>({ result: submission.reply({ fieldErrors: { dateOfBirth: ["Das Geburtsdatum liegt in der Zukunft"] } }) }, { status: 400 });
  }
  const now = new Date();
  const outcome = await bookOnline(
    db,
    {
      personId: person.id,
      courseId,
      dog:
        value.dog === "new"
          ? { commonName: value.dogName!, breed: value.breed, gender: Number(value.gender ?? "0") as 0 | 1 | 2, dateOfBirth: value.dateOfBirth! }
          : { id: Number(value.dog) },
      mode: value.mode,
      accepted: { TERMS: value.termsId, WITHDRAWAL: value.withdrawalId, PRIVACY: value.privacyId },
      from: clientAddress(args.request),
      offerId: offerId ?? undefined,
    },
    actor,
    now,
  );
  if (outcome.status === "refused") return data<ActionData>({ result: submission.reply(), messages: outcome.messages }, { status: 409 });
  // The catalogue's places changed: the next visitor reads them fresh.
  await forgetCatalogue();
  sendAfterAnswer(
    args.context,
    mailCourseBooking(cloudflare.env, db, { person, courseId, booking: outcome, textIds: [value.termsId, value.withdrawalId], now }),
    "Buchungsbestätigung",
  );
  const message =
    outcome.place === "CONFIRMED"
      ? COURSE_BOOKED(outcome.courseName, outcome.dogName)
      : COURSE_WAITLISTED(outcome.courseName, outcome.dogName, outcome.waitlistPosition ?? 1);
  return redirectWithToast(cloudflare.env, "/mein/kurse", { type: "success", message });
}

const GENDER_OPTIONS = [
  { value: "0", label: "unbekannt" },
  { value: "1", label: "Rüde" },
  { value: "2", label: "Hündin" },
];

export default function BookCourse() {
  const { page, offer } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { course, texts } = page;
  const full = course.free === 0 && !offer;
  const bookable = page.dogs.filter((dog) => dog.refusals.length === 0);
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { dog: offer ? String(offer.dogId) : bookable[0] ? String(bookable[0].id) : "new", gender: "0" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bookingSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <PortalPage id="booking-title" title={`${course.name} buchen`}>
      <p className="mt-1 text-sm">
        <Link to={`/kurse/${course.id}`} className="text-wuff-800 underline">
          Zurück zum Kurs
        </Link>
      </p>
      <CourseFacts course={course} />
      <p className="mt-3 font-medium text-slate-800">
        {page.price === null ? "Für deine Mitgliedsart hat dieser Kurs keinen Preis." : `Dein Preis: ${formatMoney(page.price)}`}
      </p>
      {offer && (
        <PortalNotice tone="success">
          Für {offer.dogName} ist ein Platz frei geworden. Das Angebot gilt bis {formatDateTime(offer.expiresOn)} Uhr: Buche ihn hier, sonst geht er an den
          Nächsten auf der Warteliste.
        </PortalNotice>
      )}
      {full && (
        <PortalNotice tone="error">
          Der Kurs ist voll. Du kommst auf die Warteliste; wird ein Platz frei, bekommst du ein Angebot per E-Mail, das du annehmen kannst.
        </PortalNotice>
      )}
      {actionData?.messages && (
        <div role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 text-red-800">
          <p className="font-medium">Die Buchung ging nicht:</p>
          <ul className="mt-1 list-disc pl-5">
            {actionData.messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      {!texts ? (
        <PortalNotice tone="error">{TEXTS_MISSING}</PortalNotice>
      ) : (
        <Form method="post" {...getFormProps(form)} aria-label="Kurs buchen">
          {offer ? (
            <>
              <input type="hidden" name="dog" value={offer.dogId} />
              <input type="hidden" name="offerId" value={offer.id} />
            </>
          ) : (
            <PortalPart id="booking-dog" title="Für welchen Hund?">
              <fieldset aria-describedby={fields.dog.errors ? fields.dog.errorId : undefined}>
                <legend className="sr-only">Hund</legend>
                <ul className="mt-2 space-y-3">
                  {page.dogs.map((dog) => (
                    <DogChoice key={dog.id} value={String(dog.id)} name={dog.name} refusals={dog.refusals} meta={fields.dog} />
                  ))}
                  <DogChoice value="new" name="Einen neuen Hund eintragen" refusals={[]} meta={fields.dog} />
                </ul>
                {fields.dog.errors && (
                  <p id={fields.dog.errorId} role="alert" className="mt-1 text-sm text-red-700">
                    {fields.dog.errors[0]}
                  </p>
                )}
              </fieldset>
              <div className="mt-3 grid gap-3 border-t border-slate-200 pt-3 sm:grid-cols-2">
                <p className="text-sm text-slate-700 sm:col-span-2">Nur für einen neuen Hund:</p>
                <PortalField meta={fields.dogName} label="Name des Hundes" autoComplete="off" />
                <PortalField meta={fields.breed} label="Rasse (freiwillig)" autoComplete="off" />
                <PortalSelect meta={fields.gender} label="Geschlecht" options={GENDER_OPTIONS} />
                <PortalField meta={fields.dateOfBirth} label="Geburtsdatum (TT.MM.JJJJ)" autoComplete="off" />
                {page.newDogNeedsPapers && (
                  <p className="text-sm text-slate-700 sm:col-span-2">
                    Dieser Kurs setzt Nachweise voraus, die für einen neuen Hund noch nicht vorliegen. Buchen kannst du ihn, sobald er bei uns eingetragen ist
                    und der Verein seine Nachweise geprüft hat (hochladen unter{" "}
                    <Link to="/mein/hunde" className="text-wuff-800 underline">
                      Meine Hunde
                    </Link>
                    ).
                  </p>
                )}
              </div>
            </PortalPart>
          )}
          <PortalContractTerms
            texts={texts}
            accept={fields.accept}
            withdrawalNote={
              page.withdrawalRight
                ? "Du kannst diese Buchung innerhalb von 14 Tagen ohne Angabe von Gründen widerrufen, unter „Meine Kurse“ mit „Vertrag widerrufen“."
                : "Für diesen Kurs besteht kein Widerrufsrecht: Er ist eine Freizeitdienstleistung zu festen Terminen (§ 312g Abs. 2 Nr. 9 BGB). Abmelden kannst du dich nach den AGB."
            }
          />
          {full || page.price === null ? (
            <PortalSubmit name="mode" value="waitlist" disabled={page.price === null}>
              Auf die Warteliste setzen
            </PortalSubmit>
          ) : (
            <PortalSubmit name="mode" value="book">
              Zahlungspflichtig buchen
            </PortalSubmit>
          )}
        </Form>
      )}
    </PortalPage>
  );
}

/** One dog to choose: a radio with its name, or, when it may not be booked, the reasons instead. */
function DogChoice({
  value,
  name,
  refusals,
  meta,
}: {
  value: string;
  name: string;
  refusals: string[];
  meta: ReturnType<typeof useForm<Record<string, unknown>>>[1][string];
}) {
  const id = `dog-${value}`;
  return (
    <li>
      <label htmlFor={id} className="flex items-start gap-2">
        <input
          id={id}
          type="radio"
          name={meta.name}
          value={value}
          defaultChecked={meta.initialValue === value}
          disabled={refusals.length > 0}
          className="mt-1 h-5 w-5"
        />
        <span className={refusals.length ? "text-slate-500" : undefined}>{name}</span>
      </label>
      {refusals.length > 0 && (
        <ul className="ml-7 mt-1 list-disc pl-4 text-sm text-slate-700">
          {refusals.map((refusal) => (
            <li key={refusal}>{refusal}</li>
          ))}
        </ul>
      )}
    </li>
  );
}
