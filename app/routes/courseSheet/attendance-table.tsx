import { formatDate, formatDateTimeWithWeekday } from "~/lib/format";
import { attendanceText } from "~/lib/attendance";

type Props = {
  courseName: string;
  participants: { id: number; fullName: string | null; dogCommonName: string; status: string; takesPart: boolean }[];
  /** The dates held so far, in time order. */
  dates: { id: number; startDateTime: string }[];
  /** 'dateId:membershipId' of every tick. */
  present: string[];
};

/**
 * The Kursblatt's attendance: a column per date held so far (✓ or empty) and the count 'x von y'.
 * Narrow columns (day and month on two lines), the names stay in view while it scrolls sideways;
 * printed, it is all on the page in small type.
 */
export function AttendanceTable({ courseName, participants, dates, present }: Props) {
  const ticks = new Set(present);
  return (
    <section aria-labelledby="attendance-title" className="flex flex-col gap-2 print:break-inside-avoid">
      <h2 id="attendance-title" className="text-base font-semibold text-wuff-800">
        Anwesenheit
      </h2>
      {dates.length === 0 || participants.length === 0 ? (
        <p className="text-sm text-slate-700">{dates.length === 0 ? "Noch hat kein Termin dieses Kurses stattgefunden." : "Keine Teilnehmer"}</p>
      ) : (
        // A scrolling region is reachable by keyboard (tabIndex) and named.
        <div
          role="region"
          aria-label={`Anwesenheit in ${courseName}`}
          tabIndex={0}
          className="w-fit max-w-full overflow-x-auto rounded border border-slate-200 print:overflow-visible print:border-0"
        >
          <table id="attendance-table" className="border-collapse text-sm print:text-[7pt]">
            <caption className="sr-only">Anwesenheit je Termin in {courseName}: ✓ heißt anwesend</caption>
            <thead>
              <tr className="bg-slate-50">
                <th scope="col" className="sticky left-0 bg-slate-50 px-2 py-1 text-left font-semibold">
                  Teilnehmer
                </th>
                {dates.map((date) => (
                  <th
                    key={date.id}
                    scope="col"
                    className="min-w-7 px-0.5 py-1 text-center text-xs font-medium leading-tight tabular-nums print:text-[6pt]"
                    title={formatDateTimeWithWeekday(date.startDateTime)}
                  >
                    <span className="sr-only">{formatDate(date.startDateTime)}</span>
                    <span aria-hidden="true">
                      {formatDate(date.startDateTime).slice(0, 3)}
                      <br />
                      {formatDate(date.startDateTime).slice(3, 6)}
                    </span>
                  </th>
                ))}
                <th scope="col" className="whitespace-nowrap px-2 py-1 text-right font-semibold">
                  Anwesend
                </th>
              </tr>
            </thead>
            <tbody>
              {participants.map((participant) => {
                const attended = dates.filter((date) => ticks.has(`${date.id}:${participant.id}`)).length;
                return (
                  <tr key={participant.id} className="border-t border-slate-200">
                    <th scope="row" className="sticky left-0 whitespace-nowrap bg-white px-2 py-1 text-left font-normal">
                      {participant.fullName} · {participant.dogCommonName}
                      {!participant.takesPart && <span className="text-slate-600"> ({participant.status})</span>}
                    </th>
                    {dates.map((date) => (
                      <td key={date.id} className="border-l border-slate-100 px-0.5 py-1 text-center font-semibold text-wuff-800">
                        {ticks.has(`${date.id}:${participant.id}`) ? (
                          <>
                            <span aria-hidden="true">✓</span>
                            <span className="sr-only">anwesend</span>
                          </>
                        ) : null}
                      </td>
                    ))}
                    <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">
                      {participant.takesPart || attended > 0 ? attendanceText(attended, dates.length) : ""}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
