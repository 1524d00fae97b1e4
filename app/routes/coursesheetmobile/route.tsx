import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useFetcher, useFetchers, useLoaderData, useSubmit } from "@remix-run/react";
import { CallButtons, Card, CardList, HandsetScreen, TOUCH } from "~/components/handset";
import { SCREEN_TITLES } from "~/components/navigation";
import { dialogAction } from "~/dialogs/kit.server";
import { berlinDateOf, formatDate, formatTime, formatWeekday, todayInBerlin } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { chooseDate, courseAttendance, setAttendance } from "~/models/attendances.server";
import { cardStandings, type CardStanding } from "~/lib/cards";
import { cardsOfCourse } from "~/models/cards.server";
import { listAllMemberships } from "~/models/course-memberships.server";
import { runningCourses } from "~/models/handset.server";
import { readForUser, requireAccessToAll } from "~/services/auth.server";
import { readForm } from "~/services/request.server";

/**
 * Kursblatt for the phone: a running course is chosen (the trainer's own first), then one of its
 * dates (today's first, else the nearest coming, else the last one) and its participants, each
 * with dog, phone, the proofs that are missing (rabies, insurance), whether the course is paid,
 * and a tick for being there. The date chooser is a GET form; a tick is a form post of the state
 * wanted (with JavaScript sent in the background and shown at once).
 */
const AREAS = ["coursesheetmobile", "courses"] as const;

export async function loader(args: LoaderFunctionArgs) {
  const search = new URL(args.request.url).searchParams;
  const wanted = parseId(search.get("course"));
  const wantedDate = parseId(search.get("date"));
  const today = todayInBerlin();
  const { value } = await readForUser(args, AREAS, async (user) => {
    const { db } = args.context;
    // Read together: one round trip (the course is checked against the running ones after it).
    const [courses, participants, attendance, cards] = await Promise.all([
      runningCourses(db, new Date(), user.email),
      wanted ? listAllMemberships(db, { courseId: wanted, sort: { id: "fullName", descending: false } }, today) : Promise.resolve([]),
      wanted ? courseAttendance(db, wanted, today) : Promise.resolve({ dates: [], present: [] }),
      wanted ? cardsOfCourse(db, wanted) : Promise.resolve([]),
    ]);
    const course = courses.find((candidate) => candidate.id === wanted) ?? null;
    return { courses, course, participants: course ? participants : [], attendance, cards: course ? cards : [] };
  });
  const { courses, course, participants, attendance, cards } = value;
  const date = course ? chooseDate(attendance.dates, wantedDate, today) : null;
  const present = date ? attendance.present.filter((key) => key.startsWith(`${date.id}:`)).map((key) => Number(key.split(":")[1])) : [];
  // An open group counted by card: what each participant has left on the date's day (issue 34).
  const standing = date ? cardStandings(cards, berlinDateOf(date.startDateTime)) : new Map<number, CardStanding>();
  return {
    cards: Object.fromEntries([...standing].map(([membershipId, card]) => [membershipId, cardStandingText(card)])),
    courses,
    course,
    participants,
    dates: attendance.dates.map((option) => ({ id: option.id, label: dateLabel(option.startDateTime, option.isAllDay, today), held: option.held })),
    date: date ? { id: date.id, label: dateLabel(date.startDateTime, date.isAllDay, today), held: date.held } : null,
    present,
  };
}

/** 'Abo', 'Karte: 7 Einheiten übrig' or, in red, 'Ohne gültige Karte' (the tick still counts). */
function cardStandingText(card: CardStanding): { text: string; warn: boolean } {
  if (card.subscription) return { text: "Abo", warn: false };
  if (card.units > 0) return { text: `Karte: ${card.units === 1 ? "1 Einheit" : `${card.units} Einheiten`} übrig`, warn: card.units <= 1 };
  return { text: "Ohne gültige Karte (wird trotzdem gezählt)", warn: true };
}

function dateLabel(start: string, isAllDay: boolean, today: string) {
  const day = berlinDateOf(start);
  return `${formatWeekday(start)} ${formatDate(start)}${isAllDay ? "" : ` ${formatTime(start)}`}${day === today ? " (heute)" : ""}`;
}

type TickResult = { ok: true; present: boolean } | { ok: false; error: string };

/**
 * A tick ('attendance'), for everyone who may use the Kursblatt (trainers are plain staff): the
 * state wanted for one participant on one date. Without JavaScript back to the same date; with it
 * (`via=fetch`) the answer only. Anything else here is a dialog's post.
 */
export async function action(args: ActionFunctionArgs) {
  const form = await readForm(args.request.clone() as Request);
  if (form.get("intent") !== "attendance") return dialogAction(args, ["coursesheetmobile"], []);
  const user = await requireAccessToAll(args, AREAS);
  const courseId = parseId(form.get("course"));
  const courseDateId = parseId(form.get("date"));
  const courseMembershipId = parseId(form.get("membership"));
  const wanted = form.get("present");
  if (courseId === null || courseDateId === null || courseMembershipId === null || (wanted !== "1" && wanted !== "0")) {
    return data<TickResult>({ ok: false, error: "Die Anwesenheit braucht Kurs, Termin, Teilnehmer und ob anwesend (1 oder 0)." }, { status: 400 });
  }
  const outcome = await setAttendance(args.context.db, { courseId, courseDateId, courseMembershipId, present: wanted === "1" }, user);
  if (outcome.status === "refused") return data<TickResult>({ ok: false, error: outcome.message }, { status: outcome.httpStatus });
  if (form.get("via") === "fetch") return data<TickResult>({ ok: true, present: outcome.present });
  return redirect(`/coursesheetmobile?course=${courseId}&date=${courseDateId}#teilnehmer-${courseMembershipId}`);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${SCREEN_TITLES.coursesheetmobile}${data?.course ? ` ${data.course.name}` : ""} – Wuff` },
];

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;
type Participant = Loaded["participants"][number];

const fetcherKey = (dateId: number, membershipId: number) => `attendance-${dateId}-${membershipId}`;

/** The tick of one participant: a button that shows a large check box and says what it does. */
function AttendanceTick({ participant, courseId, dateId, present }: { participant: Participant; courseId: number; dateId: number; present: boolean }) {
  const fetcher = useFetcher<TickResult>({ key: fetcherKey(dateId, participant.id) });
  const pending = fetcher.formData?.get("present");
  const shown = pending === "1" ? true : pending === "0" ? false : present;
  const name = `${participant.dogCommonName} mit ${participant.fullName ?? ""}`;
  return (
    <fetcher.Form
      method="post"
      onSubmit={(event) => {
        // With JavaScript in the background (the answer only); without, the form posts itself.
        event.preventDefault();
        fetcher.submit(
          {
            intent: "attendance",
            course: String(courseId),
            date: String(dateId),
            membership: String(participant.id),
            present: shown ? "0" : "1",
            via: "fetch",
          },
          { method: "post" },
        );
      }}
    >
      <input type="hidden" name="intent" value="attendance" />
      <input type="hidden" name="course" value={courseId} />
      <input type="hidden" name="date" value={dateId} />
      <input type="hidden" name="membership" value={participant.id} />
      <input type="hidden" name="present" value={shown ? "0" : "1"} />
      <button
        type="submit"
        aria-pressed={shown}
        aria-label={`Anwesend: ${name}`}
        className={`${TOUCH} min-h-14 w-full justify-start gap-3 border-2 text-lg ${shown ? "border-wuff-800 bg-wuff-800 text-white" : "border-slate-500 bg-white text-slate-950"}`}
      >
        <span
          aria-hidden="true"
          className={`flex size-8 shrink-0 items-center justify-center rounded border-2 text-2xl leading-none ${shown ? "border-white bg-white text-wuff-800" : "border-slate-600 bg-white"}`}
        >
          {shown ? "✓" : ""}
        </span>
        {/* The same word in both states (its name starts with what it shows); the box and aria-pressed say which. */}
        Anwesend
      </button>
      {fetcher.state === "idle" && fetcher.data && !fetcher.data.ok && (
        <p role="alert" className="mt-2 font-semibold text-red-800">
          {fetcher.data.error}
        </p>
      )}
    </fetcher.Form>
  );
}

function CourseChoice({ courses }: { courses: Loaded["courses"] }) {
  return (
    <HandsetScreen title={SCREEN_TITLES.coursesheetmobile}>
      <p className="text-lg">Welcher Kurs?</p>
      <CardList label="Laufende Kurse" empty="Keine laufenden Kurse gefunden">
        {courses.map((option) => (
          <li key={option.id}>
            <Link to={`?course=${option.id}`} className={`${TOUCH} w-full justify-start border-2 border-slate-300 bg-white py-3 text-left text-lg`}>
              {option.name}
              {option.trainerName ? <span className="ml-2 font-normal text-slate-700">({option.trainerName})</span> : null}
            </Link>
          </li>
        ))}
      </CardList>
    </HandsetScreen>
  );
}

export default function CourseSheetHandset() {
  const { courses, course, participants, dates, date, present, cards } = useLoaderData<typeof loader>();
  // A refused tick without JavaScript (a dialog's answer has no `ok`).
  const answer = useActionData<TickResult | Record<string, unknown>>();
  const refused = answer && "ok" in answer && answer.ok === false ? String(answer.error) : null;
  const submit = useSubmit();
  // What is shown ticked: the stored state, overridden by the ticks still under way.
  const fetchers = useFetchers();
  if (!course) return <CourseChoice courses={courses} />;
  const ticked = new Set(present);
  if (date) {
    for (const participant of participants) {
      const wanted = fetchers.find((fetcher) => fetcher.key === fetcherKey(date.id, participant.id))?.formData?.get("present");
      if (wanted === "1") ticked.add(participant.id);
      if (wanted === "0") ticked.delete(participant.id);
    }
  }
  // Ticks still on their way (shown already): said, so nobody closes the page before they arrive.
  const saving = fetchers.some((fetcher) => fetcher.key.startsWith("attendance-") && fetcher.state !== "idle");
  const tickable = participants.filter((participant) => participant.takesPart);
  const presentCount = tickable.filter((participant) => ticked.has(participant.id)).length;
  const unpaid = participants.filter((participant) => !participant.isPaid).length;
  return (
    <HandsetScreen title={`${SCREEN_TITLES.coursesheetmobile}: ${course.name}`}>
      <p>
        {participants.length} Teilnehmer{course.maxDogs !== null ? ` von ${course.maxDogs} Plätzen` : ""}
        {unpaid > 0 ? `, ${unpaid} noch nicht bezahlt` : ", alle bezahlt"}
      </p>
      <Link to="?" className={`${TOUCH} self-start border-2 border-wuff-800 bg-white text-wuff-800`}>
        Anderen Kurs wählen
      </Link>
      {date ? (
        <Form method="get" className="flex flex-col gap-2" onChange={(event) => submit(event.currentTarget, { replace: true, preventScrollReset: true })}>
          <input type="hidden" name="course" value={course.id} />
          <label htmlFor="attendance-date" className="text-lg font-semibold">
            Termin
          </label>
          <div className="flex gap-2">
            <select
              id="attendance-date"
              name="date"
              defaultValue={date.id}
              key={date.id}
              className="min-h-11 min-w-0 flex-1 rounded-lg border-2 border-slate-500 bg-white px-2 text-lg"
            >
              {dates.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </select>
            <button type="submit" className={`${TOUCH} bg-wuff-800 text-white active:bg-wuff-700`}>
              Zeigen
            </button>
          </div>
        </Form>
      ) : (
        <p className="rounded-xl bg-slate-100 p-4 text-lg">Dieser Kurs hat noch keine Termine.</p>
      )}
      {date && (
        <p role="status" className="text-xl font-bold text-wuff-800">
          {date.held ? `${presentCount} von ${tickable.length} anwesend` : "Dieser Termin hat noch nicht stattgefunden: Anwesenheit ab seinem Tag."}
          {saving && <span className="font-normal"> · wird gespeichert …</span>}
        </p>
      )}
      {refused && (
        <p role="alert" className="rounded-xl border-2 border-red-800 bg-red-50 p-3 font-semibold text-red-800">
          {refused}
        </p>
      )}
      <CardList label={`Teilnehmer von ${course.name}`} empty="Noch keine Teilnehmer">
        {participants.map((participant) => (
          <Card key={participant.id} label={`${participant.dogCommonName} mit ${participant.fullName ?? ""}`}>
            <h2 id={`teilnehmer-${participant.id}`} className="scroll-mt-4 text-xl font-bold">
              {participant.dogCommonName}
              <span className="font-normal"> mit {participant.fullName}</span>
            </h2>
            {date?.held && participant.takesPart && (
              <AttendanceTick participant={participant} courseId={course.id} dateId={date.id} present={ticked.has(participant.id)} />
            )}
            {!participant.takesPart && <p className="font-semibold text-slate-800">{participant.status}: nimmt nicht teil</p>}
            <p>{[participant.breed, participant.dogGenderText, participant.dogAgeText].filter(Boolean).join(" · ")}</p>
            {participant.attendanceText && <p>Anwesend: {participant.attendanceText} Terminen</p>}
            {cards[participant.id] && (
              <p className={cards[participant.id].warn ? "font-semibold text-red-800" : "text-wuff-800"}>{cards[participant.id].text}</p>
            )}
            {participant.proofWarnings.map((warning) => (
              <p key={warning} className="font-semibold text-red-800">
                {warning}
              </p>
            ))}
            <p className={participant.isPaid ? "text-wuff-800" : "font-semibold text-amber-900"}>{participant.isPaid ? "Bezahlt" : "Nicht bezahlt"}</p>
            <CallButtons
              phones={[
                { label: "Mobil", number: participant.mobilePhone },
                { label: "Telefon", number: participant.homePhone },
              ]}
            />
          </Card>
        ))}
      </CardList>
    </HandsetScreen>
  );
}
