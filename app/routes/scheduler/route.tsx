import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Calendar } from "~/components/calendar";
import { dialogAction } from "~/dialogs/kit.server";
import { buildCalendar, calendarParams, viewRange } from "~/lib/calendar";
import { todayInBerlin } from "~/lib/format";
import { listCalendarDates } from "~/models/calendar.server";
import { readForUser } from "~/services/auth.server";

/**
 * Kalender (spec 000 §2 scheduler): the course dates as a month (default), a week or a list, in
 * Berlin time. The URL is the state (?view=month|week|list&date=YYYY-MM-DD; anything else shows
 * the month of today); a date opens the course date dialog, whose posts this page's action answers.
 */
export async function loader(args: LoaderFunctionArgs) {
  const today = todayInBerlin();
  const { view, date } = calendarParams(new URL(args.request.url).searchParams, today);
  const { value: rows } = await readForUser(args, ["scheduler"], () => listCalendarDates(args.context.db, viewRange(view, date)));
  return buildCalendar({ view, date, today, rows });
}

export const action = (args: ActionFunctionArgs) => dialogAction(args, ["scheduler"], []);

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Kalender${data ? ` ${data.title}` : ""} – Wuff` }];

export default function Scheduler() {
  return <Calendar data={useLoaderData<typeof loader>()} />;
}
