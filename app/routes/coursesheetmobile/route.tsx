import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { dialogAction } from "~/dialogs/kit.server";
import { Link, useLoaderData } from "@remix-run/react";
import { CallButtons, Card, CardList, HandsetScreen, TOUCH } from "~/components/handset";
import { SCREEN_TITLES } from "~/components/navigation";
import { parseId } from "~/lib/ids";
import { listAllMemberships } from "~/models/course-memberships.server";
import { runningCourses } from "~/models/handset.server";
import { readForUser } from "~/services/auth.server";

/**
 * Kursblatt for the phone: a running course is chosen (the trainer's own first), then its
 * participants, each with dog, phone, the proofs that are missing (rabies, insurance) and whether
 * the course is paid.
 */
export async function loader(args: LoaderFunctionArgs) {
  const wanted = parseId(new URL(args.request.url).searchParams.get("course"));
  const { value } = await readForUser(args, ["coursesheetmobile", "courses"], async (user) => {
    const { db } = args.context;
    const courses = await runningCourses(db, new Date(), user.email);
    const course = courses.find((candidate) => candidate.id === wanted) ?? null;
    const participants = course ? await listAllMemberships(db, { courseId: course.id, sort: { id: "fullName", descending: false } }) : [];
    return { courses, course, participants };
  });
  return value;
}

/** The dialogs any page can show post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["coursesheetmobile"], []);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${SCREEN_TITLES.coursesheetmobile}${data?.course ? ` ${data.course.name}` : ""} – Wuff` }];

export default function CourseSheetHandset() {
  const { courses, course, participants } = useLoaderData<typeof loader>();
  if (!course) {
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
      <CardList label={`Teilnehmer von ${course.name}`} empty="Noch keine Teilnehmer">
        {participants.map((participant) => (
          <Card key={participant.id} label={`${participant.dogCommonName} mit ${participant.fullName ?? ""}`}>
            <h2 className="text-xl font-bold">
              {participant.dogCommonName}
              <span className="font-normal"> mit {participant.fullName}</span>
            </h2>
            <p>{[participant.breed, participant.dogGenderText, participant.dogAgeText].filter(Boolean).join(" · ")}</p>
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
