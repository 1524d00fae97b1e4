import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { dialogAction } from "~/dialogs/kit.server";
import { useLoaderData } from "@remix-run/react";
import { Card, CardList, HandsetLink, HandsetScreen } from "~/components/handset";
import { SCREEN_TITLES } from "~/components/navigation";
import { formatDateTimeWithWeekday } from "~/lib/format";
import { runningCourses } from "~/models/handset.server";
import { readForUser } from "~/services/auth.server";

/** Laufende Kurse for the phone: trainer, next date and place, participants of places; the trainer's own first. */
export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForUser(args, ["coursesmobile"], (user) => runningCourses(args.context.db, new Date(), user.email));
  return { courses: value };
}

/** The dialogs any page can show post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["coursesmobile"], []);

export const meta: MetaFunction = () => [{ title: `${SCREEN_TITLES.coursesmobile} – Wuff` }];

export default function CoursesHandset() {
  const { courses } = useLoaderData<typeof loader>();
  return (
    <HandsetScreen title={SCREEN_TITLES.coursesmobile}>
      <CardList label="Laufende Kurse" empty="Keine laufenden Kurse gefunden">
        {courses.map((course) => {
          const full = course.maxDogs !== null && course.actualNrOfDogs > course.maxDogs;
          return (
            <Card key={course.id} label={course.name}>
              <h2 className="text-xl font-bold">{course.name}</h2>
              {course.trainerName && <p>Trainer: {course.trainerName}</p>}
              <p>
                Nächster Termin: <span className="font-semibold">{course.nextDate ? formatDateTimeWithWeekday(course.nextDate) : "keiner geplant"}</span>
                {course.nextDate && (course.nextLocation ?? course.location) ? `, ${course.nextLocation ?? course.location}` : ""}
              </p>
              {course.webTimeInformation && <p className="text-slate-700">{course.webTimeInformation}</p>}
              <p className={full ? "font-semibold text-red-800" : undefined}>
                Teilnehmer: {course.actualNrOfDogs}
                {course.maxDogs !== null ? ` von ${course.maxDogs} Plätzen` : ""}
                {full ? " (überbucht)" : ""}
              </p>
              <HandsetLink to={`/coursesheetmobile?course=${course.id}`}>Kursblatt öffnen</HandsetLink>
            </Card>
          );
        })}
      </CardList>
    </HandsetScreen>
  );
}
