/**
 * The pieces of the public course catalogue (issue 33): a course's facts as the list and its own
 * page show them, phone first (one column, nothing wider than the screen).
 */
import type { ReactNode } from "react";
import { placesText } from "~/lib/catalogue";
import { formatDate, formatMoney, formatTime, formatWeekday } from "~/lib/format";
import type { CatalogueCourse, CatalogueDate } from "~/models/catalogue.server";

/** 'Mi, 02.12.2026, 18:00–19:00 Uhr' ('ganztägig' for an all-day date). */
export function dateText(date: CatalogueDate): string {
  const day = `${formatWeekday(date.start)}, ${formatDate(date.start)}`;
  if (date.isAllDay) return `${day}, ganztägig`;
  return `${day}, ${formatTime(date.start)}${date.end ? `–${formatTime(date.end)}` : ""} Uhr`;
}

/** A fact's row, term and value are styled from their list (FACTS_CLASS): the catalogue's page
 *  repeats them over a hundred times. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{`${term}:`}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const FACTS_CLASS = "mt-2 space-y-1 text-sm [&>div]:flex [&>div]:flex-wrap [&>div]:gap-x-2 [&_dt]:font-medium [&_dt]:text-slate-800 [&_dd]:text-slate-700";

/** Free places in green, the waiting list in amber (with its word, never by colour alone). */
export function Places({ free }: { free: number | null }) {
  const full = free === 0;
  return (
    <span className={`inline-block rounded px-2 py-0.5 text-sm font-medium ${full ? "bg-amber-100 text-amber-900" : "bg-green-100 text-green-900"}`}>
      {placesText(free)}
    </span>
  );
}

/** Type, trainer, place, prices per tier and the requirements of a course. */
export function CourseFacts({ course }: { course: Omit<CatalogueCourse, "dates" | "weekdays"> }) {
  return (
    <dl className={FACTS_CLASS}>
      <Fact term="Kurs-Typ">{course.typeName}</Fact>
      {course.trainer && <Fact term="Trainer">{course.trainer}</Fact>}
      {course.location && <Fact term="Ort">{course.location}</Fact>}
      {course.timeText && <Fact term="Zeit">{course.timeText}</Fact>}
      <Fact term={course.perSession ? "Preis je Termin" : "Preis"}>
        <ul>
          {course.prices.map((price) => (
            <li key={price.label}>{`${price.label}: ${formatMoney(price.amount)}`}</li>
          ))}
        </ul>
      </Fact>
      <Fact term="Voraussetzungen">
        {course.requirements.length === 0 ? (
          "keine"
        ) : (
          <ul className="list-disc pl-5">
            {course.requirements.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        )}
      </Fact>
    </dl>
  );
}
