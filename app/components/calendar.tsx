import { Link } from "@remix-run/react";
import { CALENDAR_VIEWS, WEEKDAYS, type CalendarData, type CalendarDay, type CalendarEntry, type CalendarView } from "~/lib/calendar";
import { formatNumber } from "~/lib/locale";
import { ToggleLinks } from "./toggle-links";

/**
 * The Kalender: a month grid or a week of course dates, or a list of them (on a phone the month
 * and the week are a list too). Everything is a link, so it works without JavaScript: the URL
 * (?view=&date=) says what is shown, a date opens its dialog (?dialog=courseDate-edit&dialogId=).
 */
// Absolute: the view switch's links are plain anchors, written as given (ToggleLinks).
const href = (view: CalendarView, date: string | null, extra: Record<string, string | number> = {}) => {
  const search = new URLSearchParams({ view, ...(date ? { date } : {}) });
  for (const [name, value] of Object.entries(extra)) search.set(name, String(value));
  return `/scheduler?${search}`;
};

const linkClass = "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-wuff-700";

/** One date: time, course and location (and the trainer where there is room); opens 'Termin bearbeiten'. */
function Entry({ entry, data, roomy }: { entry: CalendarEntry; data: CalendarData; roomy: boolean }) {
  return (
    <Link
      to={href(data.view, data.date, { dialog: "courseDate-edit", dialogId: entry.id })}
      preventScrollReset
      className={`block hyphens-auto break-words rounded border-l-4 px-1.5 py-1 text-xs leading-snug hover:underline focus-visible:outline-2 focus-visible:outline-wuff-700 print:break-inside-avoid ${entry.color}`}
    >
      <span className="font-semibold tabular-nums">{entry.time}</span> <span className="block font-medium">{entry.courseName}</span>{" "}
      {entry.location && <span className="block">{entry.location}</span>}{" "}
      {roomy && entry.trainerName && <span className="block">Trainer: {entry.trainerName}</span>}
    </Link>
  );
}

function Entries({ day, data, roomy }: { day: CalendarDay; data: CalendarData; roomy: boolean }) {
  if (day.entries.length === 0) return null;
  return (
    <ul className="mt-1 space-y-1">
      {day.entries.map((entry) => (
        <li key={entry.id}>
          <Entry entry={entry} data={data} roomy={roomy} />
        </li>
      ))}
    </ul>
  );
}

const TodayMark = () => (
  <span className="ml-1 rounded bg-wuff-700 px-1.5 py-0.5 text-xs font-semibold text-white print:bg-transparent print:text-wuff-800">Heute</span>
);

function MonthGrid({ data }: { data: CalendarData }) {
  return (
    <table aria-labelledby="calendar-title" className="w-full table-fixed border-collapse text-sm">
      <thead>
        <tr>
          {WEEKDAYS.map((weekday) => (
            <th key={weekday.short} scope="col" className="border border-slate-200 bg-slate-100 px-1 py-1 text-center font-semibold text-slate-700">
              <abbr title={weekday.long} className="no-underline">
                {weekday.short}
              </abbr>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.weeks.map((week) => (
          <tr key={week[0].day} className="print:break-inside-avoid">
            {week.map((day) => (
              <td
                key={day.day}
                aria-current={day.isToday ? "date" : undefined}
                className={`h-24 border border-slate-200 p-1 align-top ${day.inPeriod ? "bg-white" : "bg-slate-50 text-slate-600"} ${day.isToday ? "outline outline-2 -outline-offset-2 outline-wuff-700" : ""}`}
              >
                <span
                  aria-hidden
                  className={`inline-flex h-6 min-w-6 items-center justify-center rounded-full px-1 text-xs ${day.isToday ? "bg-wuff-700 font-semibold text-white" : day.inPeriod ? "font-medium text-slate-800" : ""}`}
                >
                  {day.dayNumber}
                </span>
                <span className="sr-only">
                  {day.label}
                  {day.isToday ? " (heute)" : ""}
                </span>
                <Entries day={day} data={data} roomy={false} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function WeekGrid({ data }: { data: CalendarData }) {
  const [week] = data.weeks;
  return (
    <table aria-labelledby="calendar-title" className="w-full table-fixed border-collapse text-sm">
      <thead>
        <tr>
          {week.map((day) => (
            <th
              key={day.day}
              scope="col"
              aria-current={day.isToday ? "date" : undefined}
              className={`border border-slate-200 px-1 py-1 text-center font-semibold ${day.isToday ? "bg-wuff-700 text-white print:bg-transparent print:text-wuff-800" : "bg-slate-100 text-slate-700"}`}
            >
              <abbr title={day.label} className="no-underline">
                {day.short}
              </abbr>
              {day.isToday && <span className="sr-only"> (heute)</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr>
          {week.map((day) => (
            <td key={day.day} className={`h-40 border border-slate-200 p-1 align-top ${day.isToday ? "bg-wuff-50" : "bg-white"}`}>
              <Entries day={day} data={data} roomy />
              {day.entries.length === 0 && <span className="sr-only">Keine Termine</span>}
            </td>
          ))}
        </tr>
      </tbody>
    </table>
  );
}

/** The dates as a list of days (only days with dates), for the list view and for phones. */
function DayList({ data }: { data: CalendarData }) {
  if (data.listDays.length === 0) {
    return (
      <p className="rounded border border-slate-200 bg-white p-3 text-sm text-slate-700">
        {data.view === "week" ? "Keine Termine in dieser Woche." : `Keine Termine im ${data.title}.`}
      </p>
    );
  }
  return (
    <ol className="space-y-3" aria-labelledby="calendar-title">
      {data.listDays.map((day) => (
        <li key={day.day} aria-current={day.isToday ? "date" : undefined} className="print:break-inside-avoid">
          <h3 className="text-sm font-semibold text-slate-800">
            {day.label}
            {day.isToday && <TodayMark />}
          </h3>
          <Entries day={day} data={data} roomy />
        </li>
      ))}
    </ol>
  );
}

export function Calendar({ data }: { data: CalendarData }) {
  const grid = data.view === "month" ? <MonthGrid data={data} /> : data.view === "week" ? <WeekGrid data={data} /> : null;
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h1 className="text-lg font-semibold text-wuff-800">Kalender</h1>
        <h2 id="calendar-title" className="text-lg text-slate-800" aria-live="polite">
          {data.title} <span className="text-sm font-normal text-slate-600">({data.total === 1 ? "1 Termin" : `${formatNumber(data.total)} Termine`})</span>
        </h2>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 print:hidden">
        <nav aria-label="Zeitraum" className="flex flex-wrap gap-1">
          <Link to={href(data.view, data.previous)} preventScrollReset className={linkClass}>
            Zurück
          </Link>
          <Link to={href(data.view, null)} preventScrollReset className={linkClass}>
            Heute
          </Link>
          <Link to={href(data.view, data.next)} preventScrollReset className={linkClass}>
            Weiter
          </Link>
        </nav>
        <ToggleLinks label="Ansicht" options={CALENDAR_VIEWS} active={data.view} hrefOf={(value) => href(value as CalendarView, data.date)} />
        <Link to={href(data.view, data.date, { dialog: "courseDate-add" })} preventScrollReset className={linkClass}>
          Termin hinzufügen
        </Link>
      </div>
      {grid ? (
        <>
          {/* From lg up (and printed) the grid; below, where seven columns get too narrow, the list. */}
          <div className="hidden lg:block print:block">{grid}</div>
          <div className="lg:hidden print:hidden">
            <DayList data={data} />
          </div>
        </>
      ) : (
        <DayList data={data} />
      )}
    </div>
  );
}
