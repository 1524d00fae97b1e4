/**
 * One course of the public catalogue (issue 33 item 1): its facts and every date to come, grouped
 * by month, and the way to book it (Mein Wuff). A course that is not (or no longer) open for
 * booking answers 404 in German.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { CourseFacts, Places, dateText } from "~/components/catalogue";
import { monthsOf } from "~/lib/catalogue";
import { publicCatalogue } from "~/services/catalogue.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.course.name ?? "Kurs"} – Kursangebot – Mein Wuff` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { courses } = await publicCatalogue(request, context);
  const course = /^\d{1,9}$/.test(params.courseId ?? "") ? courses.find((candidate) => candidate.id === Number(params.courseId)) : undefined;
  if (!course) throw new Response("Diesen Kurs gibt es im Kursangebot nicht (mehr).", { status: 404, statusText: "Nicht gefunden" });
  return { course };
}

export default function CataloguedCourse() {
  const { course } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="course-title">
      <p className="text-sm">
        <Link to="/kurse" className="text-wuff-800 underline">
          Zum Kursangebot
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-start justify-between gap-2">
        <h1 id="course-title" className="text-2xl font-semibold text-wuff-800">
          {course.name}
        </h1>
        <Places free={course.free} />
      </div>
      <CourseFacts course={course} />
      <Link
        to={`/mein/buchen/${course.id}`}
        className="mt-4 block w-full rounded bg-wuff-700 px-4 py-2 text-center font-medium text-white hover:bg-wuff-800 sm:inline-block sm:w-auto"
      >
        {course.free === 0 ? "Auf die Warteliste" : "Jetzt buchen"}
      </Link>
      <h2 className="mt-6 text-lg font-semibold text-wuff-800">{course.ongoing ? "Die nächsten Termine" : "Termine"}</h2>
      {course.dates.length === 0 && <p className="mt-2 text-slate-700">Die Termine stehen noch nicht fest.</p>}
      {monthsOf(course.dates).map((month) => (
        <section key={month.key} aria-label={month.label} className="mt-3">
          <h3 className="font-medium text-slate-800">{month.label}</h3>
          <ul className="mt-1 space-y-1 text-sm text-slate-700">
            {month.dates.map((date) => (
              <li key={date.start}>
                {dateText(date)}
                {date.location && date.location !== course.location ? `, ${date.location}` : ""}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
