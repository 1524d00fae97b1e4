/**
 * Mein Wuff, Meine Kurse (issue 32 item 5): the person's course bookings with dog, status, the next
 * dates and the attendance so far; cancelling a booking within its course type's cut-off (rules and
 * the legal note in app/lib/portal-courses.ts); and a calendar address of the person's own course
 * dates to subscribe to. Everything for the signed-in person only, complete without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PortalNotice, PortalPage, PortalPart, PortalSubmit } from "~/components/portal";
import { formatDate, formatDateTime, formatTime, formatWeekday } from "~/lib/format";
import { BOOKING_CANCELLED, BOOKING_CHANGED, BOOKING_UNKNOWN, BOOKING_WITHDRAWN, FEED_NEW_LINK, FEED_REVOKED, OFFER_DECLINED } from "~/lib/portal";
import { OFFER_GONE } from "~/models/online-bookings.server";
import { declineOffer } from "~/models/waitlist.server";
import {
  cancelOwnBooking,
  withdrawOwnBooking,
  ownBookings,
  ownFeedSince,
  renewOwnFeed,
  revokeOwnFeed,
  type NextDate,
  type OwnBooking,
} from "~/models/portal-courses.server";
import { clientAddress, mailBookingEnded, requirePortalPerson, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

export const meta: MetaFunction = () => [{ title: "Meine Kurse – Mein Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const [bookings, feedSince] = await Promise.all([ownBookings(args.context.db, person.id), ownFeedSince(args.context.db, person.id)]);
  return { bookings, feedSince };
}

type ActionData = { error: string; bookingId: number | null } | { feedUrl: string };

/** A positive whole number from the form, else null. */
const formNumber = (value: FormDataEntryValue | null) => {
  const number = typeof value === "string" && /^\d{1,12}$/.test(value) ? Number(value) : 0;
  return number > 0 ? number : null;
};

export async function action(args: ActionFunctionArgs) {
  const { person, actor } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const form = await readForm(args.request);
  const intent = form.get("intent");
  if (intent === "feed-renew") {
    const token = await renewOwnFeed(db, person.id);
    return data<ActionData>({ feedUrl: `${new URL(args.request.url).origin}/feeds/${token}.ics` });
  }
  if (intent === "feed-revoke") {
    await revokeOwnFeed(db, person.id);
    return redirectWithToast(cloudflare.env, "/mein/kurse", { type: "success", message: FEED_REVOKED });
  }
  if (intent === "decline") {
    const offerId = formNumber(form.get("offerId"));
    const declined = offerId !== null && (await declineOffer(db, person.id, offerId, actor));
    if (!declined) return data<ActionData>({ error: OFFER_GONE, bookingId: null }, { status: 409 });
    return redirectWithToast(cloudflare.env, "/mein/kurse", { type: "success", message: OFFER_DECLINED });
  }
  const membershipId = formNumber(form.get("bookingId"));
  const rowVersion = formNumber(form.get("rowVersion"));
  if ((intent !== "cancel" && intent !== "withdraw") || membershipId === null || rowVersion === null) {
    return data<ActionData>({ error: BOOKING_UNKNOWN, bookingId: null }, { status: 400 });
  }
  const input = { personId: person.id, membershipId, rowVersion, from: clientAddress(args.request) };
  const outcome = intent === "withdraw" ? await withdrawOwnBooking(db, input, actor) : await cancelOwnBooking(db, input, actor);
  // Someone else's booking, or one that does not exist: the same answer.
  if (outcome.status === "missing") throw new Response("Nicht gefunden", { status: 404 });
  if (outcome.status === "refused") return data<ActionData>({ error: outcome.message, bookingId: membershipId }, { status: 409 });
  if (outcome.status === "changed") return data<ActionData>({ error: BOOKING_CHANGED, bookingId: membershipId }, { status: 409 });
  const kind = intent === "withdraw" ? "WITHDRAWN" : "CANCELLED";
  // The confirmation on a durable medium, with the time it was received (§ 356a BGB for a withdrawal).
  sendAfterAnswer(args.context, mailBookingEnded(cloudflare.env, db, { person, kind, ...outcome }), "Bestätigung der Stornierung");
  const message =
    kind === "WITHDRAWN"
      ? BOOKING_WITHDRAWN(outcome.courseName, outcome.dogName, outcome.receivedOn, outcome.feeText)
      : BOOKING_CANCELLED(outcome.courseName, outcome.dogName, outcome.feeText);
  return redirectWithToast(cloudflare.env, "/mein/kurse", { type: "success", message });
}

export default function MyCourses() {
  const { bookings, feedSince } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const error = actionData && "error" in actionData ? actionData : null;
  const current = bookings.filter((booking) => !booking.courseFinished);
  const finished = bookings.filter((booking) => booking.courseFinished);
  return (
    <PortalPage id="my-courses-title" title="Meine Kurse" intro="Deine Kursbuchungen mit den nächsten Terminen und wie oft du schon da warst.">
      {error && error.bookingId === null && <PortalNotice tone="error">{error.error}</PortalNotice>}
      {bookings.length === 0 && <p className="mt-4 text-slate-700">Du hast bei uns noch keinen Kurs gebucht. Sprich uns gern an.</p>}
      {current.map((booking) => (
        <BookingCard key={booking.id} booking={booking} error={error?.bookingId === booking.id ? error.error : null} />
      ))}
      {finished.length > 0 && (
        <PortalPart id="finished-courses" title="Abgeschlossene Kurse">
          <ul className="mt-2 space-y-1 text-sm">
            {finished.map((booking) => (
              <li key={booking.id}>
                {booking.courseName} mit {booking.dogName}
                {booking.attendance && `: ${booking.attendance} Terminen besucht`}
              </li>
            ))}
          </ul>
        </PortalPart>
      )}
      <FeedPart feedSince={feedSince} feedUrl={actionData && "feedUrl" in actionData ? actionData.feedUrl : null} />
    </PortalPage>
  );
}

function BookingCard({ booking, error }: { booking: OwnBooking; error: string | null }) {
  const titleId = `booking-${booking.id}-title`;
  return (
    <PortalPart id={titleId} title={`${booking.courseName} mit ${booking.dogName}`}>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Status</dt>
        <dd>{booking.status}</dd>
        {booking.courseStart && (
          <>
            <dt className="text-slate-600">Kursbeginn</dt>
            <dd>{formatDateTime(booking.courseStart)}</dd>
          </>
        )}
        {booking.attendance && (
          <>
            <dt className="text-slate-600">Anwesenheit</dt>
            <dd>{booking.attendance} Terminen besucht</dd>
          </>
        )}
      </dl>
      {booking.offer && <OfferedPlace booking={booking} offer={booking.offer} />}
      {booking.takesPart && <NextDates dates={booking.nextDates} more={booking.moreDates} courseName={booking.courseName} />}
      {error && <PortalNotice tone="error">{error}</PortalNotice>}
      <WithdrawBooking booking={booking} />
      <CancelBooking booking={booking} />
    </PortalPart>
  );
}

/** A place freed for this waiting booking: booked on the course's booking page, or declined here. */
function OfferedPlace({ booking, offer }: { booking: OwnBooking; offer: NonNullable<OwnBooking["offer"]> }) {
  const label = `${booking.courseName} mit ${booking.dogName}`;
  return (
    <div className="mt-3 rounded border border-emerald-300 bg-emerald-50 p-3 text-emerald-900">
      <p className="font-medium">Ein Platz ist frei geworden! Das Angebot gilt bis {formatDateTime(offer.expiresOn)} Uhr.</p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <Link
          to={`/mein/buchen/${offer.courseId}?angebot=${offer.id}`}
          className="rounded bg-wuff-700 px-4 py-2 font-medium text-white hover:bg-wuff-800"
          aria-label={`Platz annehmen: ${label}`}
        >
          Platz annehmen
        </Link>
        <Form method="post" aria-label={`Platz ablehnen: ${label}`}>
          <input type="hidden" name="intent" value="decline" />
          <input type="hidden" name="offerId" value={offer.id} />
          <button type="submit" className="rounded border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50">
            Platz ablehnen
          </button>
        </Form>
      </div>
    </div>
  );
}

function NextDates({ dates, more, courseName }: { dates: NextDate[]; more: number; courseName: string }) {
  if (dates.length === 0) return <p className="mt-3 text-sm text-slate-700">Keine weiteren Termine geplant.</p>;
  return (
    <>
      <h3 className="mt-4 text-sm font-semibold text-slate-800">
        Nächste Termine<span className="sr-only"> ({courseName})</span>
      </h3>
      <ul className="mt-1 space-y-1 text-sm">
        {dates.map((date) => (
          <li key={date.id}>
            {date.isAllDay
              ? `${formatDate(date.startDateTime)} (ganztägig)`
              : `${formatWeekday(date.startDateTime)} ${formatDate(date.startDateTime)}, ${formatTime(date.startDateTime)}${date.endDateTime ? `–${formatTime(date.endDateTime)}` : ""} Uhr`}
            {date.location && <span className="text-slate-600">, {date.location}</span>}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="mt-1 text-sm text-slate-600">und {more} weitere</p>}
    </>
  );
}

/**
 * 'Vertrag widerrufen' (§ 356a BGB): while the period runs, a button that opens the declaration to
 * confirm - which contract, by whom, where the confirmation goes - and 'Widerruf bestätigen'.
 * Two steps without JavaScript too (a details element, then the form's button).
 */
function WithdrawBooking({ booking }: { booking: OwnBooking }) {
  if (!booking.withdrawUntil) return null;
  const label = `${booking.courseName} mit ${booking.dogName}`;
  return (
    <details className="mt-4 rounded border-2 border-wuff-700 p-3">
      <summary className="cursor-pointer font-semibold text-wuff-800">
        Vertrag widerrufen<span className="sr-only"> ({label})</span>
      </summary>
      <Form method="post" aria-label={`Vertrag ${label} widerrufen`} className="mt-2">
        <p className="text-sm text-slate-700">
          Hiermit widerrufe ich den online geschlossenen Vertrag über den Kurs „{booking.courseName}“ mit {booking.dogName}. Widerrufen kannst du bis{" "}
          {formatDate(booking.withdrawUntil)}. Die Kursgebühr wird storniert, schon Gezahltes erstattet der Verein; die Bestätigung mit Datum und Uhrzeit des
          Eingangs bekommst du per E-Mail an die Adresse, mit der du angemeldet bist.
        </p>
        <input type="hidden" name="intent" value="withdraw" />
        <input type="hidden" name="bookingId" value={booking.id} />
        <input type="hidden" name="rowVersion" value={booking.rowVersion} />
        <PortalSubmit>Widerruf bestätigen</PortalSubmit>
      </Form>
    </details>
  );
}

function CancelBooking({ booking }: { booking: OwnBooking }) {
  const { cancel } = booking;
  if (cancel.state === "cancelled") return null;
  if (cancel.state === "closed") return <p className="mt-3 text-sm text-slate-700">{cancel.reason}</p>;
  const label = `${booking.courseName} mit ${booking.dogName}`;
  return (
    // Two steps without JavaScript too: the details open, then the button posts.
    <details className="mt-4 rounded border border-slate-200 p-3">
      <summary className="cursor-pointer font-medium text-wuff-800">
        Buchung stornieren<span className="sr-only"> ({label})</span>
      </summary>
      <Form method="post" aria-label={`Buchung ${label} stornieren`} className="mt-2">
        <p className="text-sm text-slate-700">
          {cancel.until ? `In Mein Wuff stornierbar bis ${formatDate(cancel.until)}.` : "In Mein Wuff stornierbar bis vor Kursbeginn."} Was von der Kursgebühr
          bleibt, sagen die Kursbedingungen; die Bestätigung kommt per E-Mail.
        </p>
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="bookingId" value={booking.id} />
        <input type="hidden" name="rowVersion" value={booking.rowVersion} />
        <PortalSubmit>Stornierung bestätigen</PortalSubmit>
      </Form>
    </details>
  );
}

function FeedPart({ feedSince, feedUrl }: { feedSince: string | null; feedUrl: string | null }) {
  return (
    <PortalPart id="feed-title" title="Kalender abonnieren">
      <p className="mt-2 text-sm text-slate-700">
        Mit diesem Link zeigt dein Kalender (Handy, Outlook, Google) die Termine deiner Kurse und bleibt von selbst aktuell. Er zeigt nichts über andere
        Teilnehmer. Wer den Link hat, sieht deine Termine: Erzeuge einen neuen, wenn er in falsche Hände geraten ist, dann gilt der alte nicht mehr.
      </p>
      {feedUrl ? (
        <div role="status" className="mt-3 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900">
          <p>{FEED_NEW_LINK}</p>
          <p className="mt-2 break-all font-mono">{feedUrl}</p>
          <p className="mt-2 flex flex-wrap gap-3">
            <a href={feedUrl.replace(/^https?:/, "webcal:")} className="text-wuff-700 underline">
              Abonnieren
            </a>
            <a href={feedUrl} download="meine-kurse.ics" className="text-wuff-700 underline">
              Als Datei herunterladen
            </a>
          </p>
        </div>
      ) : (
        feedSince && <p className="mt-3 text-sm text-slate-700">Dein Kalender-Link ist aktiv seit {formatDateTime(feedSince)}.</p>
      )}
      <Form method="post" className="mt-1 flex flex-wrap gap-x-3">
        <PortalSubmit name="intent" value="feed-renew">
          {feedSince ? "Neuen Kalender-Link erzeugen" : "Kalender-Link erzeugen"}
        </PortalSubmit>
        {feedSince && (
          <button
            type="submit"
            name="intent"
            value="feed-revoke"
            className="mt-4 w-full rounded border border-slate-300 bg-white px-4 py-2 text-slate-800 hover:bg-slate-50 sm:w-auto"
          >
            Kalender-Link löschen
          </button>
        )}
      </Form>
    </PortalPart>
  );
}
