/**
 * Kursangebot (issue 33 item 1): the public catalogue of the courses open for booking, the next
 * first, filtered by course type and weekday. No login, nothing personal; the filters are a plain
 * GET form, so the page works without JavaScript and its URL keeps them.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { CourseFacts, Places, dateText } from "~/components/catalogue";
import { PlainLink, useFollowPlainLinks } from "~/components/plain-links";
import { CATALOGUE_PAGE_SIZE, catalogueFilterOf, cataloguePageHref, matchesFilter, WEEKDAYS } from "~/lib/catalogue";
import { formatCount, formatDate } from "~/lib/format";
import { publicCatalogue } from "~/services/catalogue.server";

export const meta: MetaFunction = () => [{ title: "Kursangebot – Mein Wuff" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { courses, types } = await publicCatalogue(request, context);
  const filter = catalogueFilterOf(new URL(request.url).searchParams);
  const matching = courses.filter((course) => matchesFilter(course, filter));
  const pages = Math.max(1, Math.ceil(matching.length / CATALOGUE_PAGE_SIZE));
  const page = Math.min(filter.page, pages);
  return {
    // A card shows the first date, how many there are and the last, not every date (the course's
    // own page does): the page's data stays the same size however many dates the courses have.
    courses: matching.slice((page - 1) * CATALOGUE_PAGE_SIZE, page * CATALOGUE_PAGE_SIZE).map(({ dates, weekdays: _weekdays, ...course }) => ({
      ...course,
      first: dates[0] ?? null,
      dateCount: dates.length,
      lastStart: dates.at(-1)?.start ?? null,
    })),
    matching: matching.length,
    page,
    pages,
    types,
    filter,
    total: courses.length,
  };
}

const selectClass = "mt-1 block w-full rounded border border-slate-300 bg-white px-3 py-2 text-base";

export default function Catalogue() {
  const { courses, matching, page, pages, types, filter, total } = useLoaderData<typeof loader>();
  const followLinks = useFollowPlainLinks();
  return (
    <section aria-labelledby="catalogue-title">
      <h1 id="catalogue-title" className="text-2xl font-semibold text-wuff-800">
        Kursangebot
      </h1>
      <p className="mt-2 text-slate-700">Diese Kurse kannst du online buchen. Sind alle Plätze vergeben, kommst du auf die Warteliste.</p>
      <Form
        method="get"
        action="/kurse"
        role="search"
        aria-label="Kurse filtern"
        className="mt-4 grid grid-cols-2 gap-3 rounded border border-slate-200 bg-white p-3"
      >
        <label className="block text-sm font-medium text-slate-800">
          Kurs-Typ
          <select name="typ" defaultValue={filter.typeId ?? ""} className={selectClass}>
            <option value="">Alle</option>
            {types.map((type) => (
              <option key={type.id} value={type.id}>
                {type.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-800">
          Wochentag
          <select name="tag" defaultValue={filter.weekday ?? ""} className={selectClass}>
            <option value="">Alle</option>
            {WEEKDAYS.map((day) => (
              <option key={day.value} value={day.value}>
                {day.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="col-span-2 rounded bg-wuff-700 px-4 py-2 font-medium text-white hover:bg-wuff-800">
          Filtern
        </button>
      </Form>
      <p className="mt-4 text-sm text-slate-700" role="status">
        {total === 0
          ? "Zurzeit ist kein Kurs online buchbar."
          : matching === 0
            ? "Kein Kurs passt zu diesen Filtern."
            : `${formatCount(matching, "Kurs", "Kurse")}${pages > 1 ? `, Seite ${page} von ${pages}` : ""}`}
      </p>
      <ul className="mt-2 space-y-4" onClick={followLinks}>
        {courses.map((course) => (
          <li key={course.id}>
            <article aria-labelledby={`course-${course.id}`} className="rounded border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h2 id={`course-${course.id}`} className="text-lg font-semibold text-wuff-800">
                  <PlainLink to={`/kurse/${course.id}`} className="underline-offset-2 hover:underline">
                    {course.name}
                  </PlainLink>
                </h2>
                <Places free={course.free} />
              </div>
              <p className="mt-1 text-sm text-slate-700">
                {`${course.ongoing ? "Fortlaufend, nächster Termin" : "Beginn"} ${course.first ? dateText(course.first) : "steht noch nicht fest"}`}
              </p>
              {!course.ongoing && course.dateCount > 1 && course.lastStart && (
                <p className="text-sm text-slate-700">{`${formatCount(course.dateCount, "Termin", "Termine")}, der letzte am ${formatDate(course.lastStart)}`}</p>
              )}
              <CourseFacts course={course} />
            </article>
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <nav aria-label="Seiten des Kursangebots" className="mt-4 flex justify-between gap-2" onClick={followLinks}>
          {page > 1 ? (
            <PlainLink to={cataloguePageHref(filter, page - 1)} className="rounded border border-slate-300 bg-white px-4 py-2 text-wuff-800">
              Vorherige Kurse
            </PlainLink>
          ) : (
            <span />
          )}
          {page < pages && (
            <PlainLink to={cataloguePageHref(filter, page + 1)} className="rounded border border-slate-300 bg-white px-4 py-2 text-wuff-800">
              Weitere Kurse
            </PlainLink>
          )}
        </nav>
      )}
    </section>
  );
}
