import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { SCREEN_TITLES } from "~/components/navigation";
import { formatDateTime } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { CALENDAR_FEED_KINDS, listFeedSubjects, offeredFeedSubject, renewCalendarFeed, type FeedSubject } from "~/models/calendar-feeds.server";
import { requireAccess } from "~/services/auth.server";
import { readForm } from "~/services/request.server";
import { PageAlert } from "~/components/error-message";

/**
 * Kalender-Abos (ADMIN, beyond the spec): the ICS feed of every current course and every trainer,
 * and 'Neuen Link erzeugen', which creates the address or replaces it (the old one stops working at
 * once). The address is shown once, in the answer to that post (to copy or to subscribe to by
 * webcal://): Wuff keeps only its hash (issue 29), so the list says only since when a link exists.
 * Plain forms: works without JavaScript.
 */
const TITLE = SCREEN_TITLES.calendarFeeds;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "calendarFeeds");
  const { courses, trainers } = await listFeedSubjects(args.context.db);
  return { courses, trainers };
}

const renewSchema = z.object({
  kind: z.enum(CALENDAR_FEED_KINDS, { error: "Unbekannte Art von Kalender" }),
  subjectId: z.string({ error: "Es fehlt, für wen der Link ist" }).transform((value, context) => {
    const id = parseId(value);
    if (id === null) {
      context.addIssue({ code: "custom", message: "Ungültige Nummer" });
      return z.NEVER;
    }
    return id;
  }),
});

/** The new address, shown once: the page that answers the post is the only place it appears. */
type CreatedFeed = { name: string; url: string; message: string };
type ActionData = { error: string; created?: undefined } | { created: CreatedFeed; error?: undefined };

export async function action(args: ActionFunctionArgs) {
  const user = await requireAccess(args, "calendarFeeds");
  const form = await readForm(args.request);
  const parsed = renewSchema.safeParse({ kind: form.get("kind") ?? undefined, subjectId: form.get("subjectId") ?? undefined });
  if (!parsed.success) {
    return data<ActionData>({ error: `Der Link konnte nicht erzeugt werden: ${parsed.error.issues[0].message}.` }, { status: 400 });
  }
  const { kind, subjectId } = parsed.data;
  const subject = await offeredFeedSubject(args.context.db, kind, subjectId);
  if (!subject) {
    const what =
      kind === "COURSE" ? "Diesen Kurs gibt es nicht oder er ist abgeschlossen" : "Diese Person gibt es nicht oder sie ist keine Trainerin bzw. kein Trainer";
    return data<ActionData>({ error: `Der Link konnte nicht erzeugt werden: ${what}.` }, { status: 404 });
  }
  const { token, created } = await renewCalendarFeed(args.context.db, { kind, subjectId }, user);
  const message = created ? `Kalender-Link für ${subject.name} erzeugt.` : `Neuer Kalender-Link für ${subject.name} erzeugt. Der alte Link gilt nicht mehr.`;
  const url = `${new URL(args.request.url).origin}/feeds/${token}.ics`;
  // No redirect: the address exists only in this answer (never in a cookie or a URL).
  return data<ActionData>({ created: { name: subject.name, url, message } });
}

export default function CalendarFeedsScreen() {
  const { courses, trainers } = useLoaderData<typeof loader>();
  const answer = useActionData<ActionData>();
  return (
    <section className="flex max-w-5xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold text-wuff-800">{TITLE}</h1>
        <p className="mt-2 text-sm text-slate-700">
          Jeder Kurs und jede Trainerin und jeder Trainer hat eine eigene, geheime Kalender-Adresse mit allen Terminen (die der letzten 12 Monate und alle
          künftigen). Im Handy-Kalender abonniert (Link „Abonnieren“ oder die Adresse unter „Kalender abonnieren“ bzw. „Kalender hinzufügen – Per URL“
          eintragen), erscheinen neue und geänderte Termine von selbst. Wer die Adresse kennt, sieht die Termine: „Neuen Link erzeugen“ macht den alten Link
          sofort ungültig. Die Adresse wird nur direkt nach dem Erzeugen angezeigt; Wuff speichert sie nicht.
        </p>
      </div>
      <PageAlert message={answer?.error} />
      {answer?.created && <NewFeedLink created={answer.created} />}
      <FeedTable caption="Aktuelle Kurse" kind="COURSE" subjects={courses} empty="Keine laufenden oder geplanten Kurse." />
      <FeedTable caption="Trainerinnen und Trainer" kind="TRAINER" subjects={trainers} empty="Keine Personen als Trainer eingetragen." />
      <p className="text-sm">
        <Link to="/configuration" className="text-wuff-700 underline">
          Zurück zu den Einstellungen
        </Link>
      </p>
    </section>
  );
}

/** The address just made, the one time it is shown: to copy, or to subscribe to right away. */
function NewFeedLink({ created }: { created: CreatedFeed }) {
  const webcal = created.url.replace(/^https?:/, "webcal:");
  return (
    <div role="status" className="flex flex-col gap-2 rounded border border-green-300 bg-green-50 p-3 text-sm text-green-900">
      <p className="font-medium">{created.message}</p>
      <p>Diese Adresse wird nur jetzt angezeigt: Bitte kopieren oder gleich abonnieren. Wer sie verliert, erzeugt einen neuen Link.</p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="text"
          readOnly
          value={created.url}
          aria-label={`Kalender-Adresse für ${created.name}`}
          onFocus={(event) => event.currentTarget.select()}
          className="w-[32rem] max-w-full rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs text-slate-900"
        />
        <a href={webcal} className="text-wuff-700 underline">
          Abonnieren
        </a>
      </div>
    </div>
  );
}

function FeedTable({ caption, kind, subjects, empty }: { caption: string; kind: "COURSE" | "TRAINER"; subjects: FeedSubject[]; empty: string }) {
  return (
    <div>
      <h2 className="mb-2 text-lg font-semibold text-wuff-800">{caption}</h2>
      {subjects.length === 0 ? (
        <p className="text-sm text-slate-600">{empty}</p>
      ) : (
        <table className="w-full border-collapse text-sm">
          <thead>
            <tr className="border-b border-slate-300 text-left">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                {kind === "COURSE" ? "Kurs" : "Name"}
              </th>
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Link
              </th>
              <th scope="col" className="py-1.5 font-medium">
                <span className="sr-only">Aktionen</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {subjects.map((subject) => (
              <FeedRow key={subject.id} subject={subject} />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function FeedRow({ subject }: { subject: FeedSubject }) {
  const navigation = useNavigation();
  const anchor = `${subject.kind.toLowerCase()}-${subject.id}`;
  const busy =
    navigation.state === "submitting" && navigation.formData?.get("kind") === subject.kind && navigation.formData?.get("subjectId") === String(subject.id);
  return (
    <tr id={anchor} className="border-b border-slate-200 align-top">
      <th scope="row" className="py-2 pr-3 text-left font-normal">
        {subject.name}
      </th>
      <td className="py-2 pr-3">
        {subject.hasFeed ? (
          <span>Link aktiv{subject.lastModifiedOn && ` seit ${formatDateTime(subject.lastModifiedOn)}`}</span>
        ) : (
          <span className="text-slate-500">Noch kein Link</span>
        )}
      </td>
      <td className="py-2 text-right">
        {/* The answer shows the new address at the top: the page scrolls there. */}
        <Form method="post">
          <input type="hidden" name="kind" value={subject.kind} />
          <input type="hidden" name="subjectId" value={subject.id} />
          <button
            type="submit"
            disabled={busy}
            aria-label={`Neuen Link erzeugen für ${subject.name}`}
            className="whitespace-nowrap rounded border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:opacity-50"
          >
            Neuen Link erzeugen
          </button>
        </Form>
      </td>
    </tr>
  );
}
