import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { dialogAction } from "~/dialogs/kit.server";
import { useLoaderData } from "@remix-run/react";
import { HandsetScreen } from "~/components/handset";
import { SCREEN_TITLES } from "~/components/navigation";
import { addDaysToDate, berlinDateOf, berlinMidnight, formatDate, formatTime, formatWeekday, todayInBerlin } from "~/lib/format";
import { comingCourseDates, type ComingDate } from "~/models/handset.server";
import { readForUser } from "~/services/auth.server";

/** How far the coming dates reach. */
const DAYS_AHEAD = 14;

/** Nächste Kurstermine for the phone: the dates of all courses from today on, grouped by day. */
export async function loader(args: LoaderFunctionArgs) {
  const today = todayInBerlin();
  const from = berlinMidnight(today);
  const until = berlinMidnight(addDaysToDate(today, DAYS_AHEAD));
  const { value } = await readForUser(args, ["nextdatesmobile"], () => comingCourseDates(args.context.db, from, until));
  return { today, dates: value };
}

/** The dialogs any page can show post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["nextdatesmobile"], []);

export const meta: MetaFunction = () => [{ title: `${SCREEN_TITLES.nextdatesmobile} – Wuff` }];

function dayTitle(day: string, today: string) {
  const prefix = day === today ? "Heute, " : day === addDaysToDate(today, 1) ? "Morgen, " : `${formatWeekday(day)}, `;
  return `${prefix}${formatDate(day)}`;
}

export default function NextDatesHandset() {
  const { today, dates } = useLoaderData<typeof loader>();
  const days = new Map<string, ComingDate[]>();
  for (const date of dates) {
    const day = berlinDateOf(date.startDateTime);
    days.set(day, [...(days.get(day) ?? []), date]);
  }
  return (
    <HandsetScreen title={SCREEN_TITLES.nextdatesmobile}>
      {days.size === 0 && <p className="rounded-xl bg-slate-100 p-4 text-lg">In den nächsten {DAYS_AHEAD} Tagen sind keine Kurstermine geplant.</p>}
      {[...days].map(([day, onDay]) => (
        <section key={day} aria-label={dayTitle(day, today)} className="flex flex-col gap-2">
          <h2 className="sticky top-0 bg-slate-50 py-1 text-lg font-bold text-wuff-800">{dayTitle(day, today)}</h2>
          <ul className="flex flex-col gap-2">
            {onDay.map((date) => (
              <li key={date.id} className="flex gap-3 rounded-xl border-2 border-slate-300 bg-white p-3">
                <span className="w-20 shrink-0 text-lg font-bold tabular-nums">{date.isAllDay ? "ganztägig" : formatTime(date.startDateTime)}</span>
                <span className="min-w-0">
                  <span className="block font-semibold">{date.courseName}</span>
                  {date.location && <span className="block text-slate-700">{date.location}</span>}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </HandsetScreen>
  );
}
