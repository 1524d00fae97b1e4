import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { calendarFeedDates, feedCutoff, findCalendarFeed, type FeedDate } from "~/models/calendar-feeds.server";
import { findOwnFeed, ownFeedDates } from "~/models/portal-courses.server";
import { downloadResponse } from "~/lib/download";
import { courseDatesCalendar } from "~/services/ics.server";
import { refuseOverLimit } from "~/services/rate-limit.server";

/**
 * GET /feeds/{token}.ics: a course's or a trainer's dates as a subscribable calendar (Kalender-Abos),
 * or a person's own courses (Mein Wuff, Meine Kurse).
 * Public: calendar apps cannot log in, the token is the key. An unknown, malformed or renewed
 * token, or a feed whose course or trainer is gone, answers 404 with the same short text, so the
 * answer tells nothing about which. The token is never logged. Rate-limited per address (a
 * calendar app asks once an hour; 429 beyond 60 a minute).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const limited = await refuseOverLimit(request, context.cloudflare.env, "feeds");
  if (limited) return limited;
  const file = params.file ?? "";
  const token = file.endsWith(".ics") ? file.slice(0, -".ics".length) : null;
  const cutoff = feedCutoff(new Date());
  const feed = token ? await findCalendarFeed(context.db, token) : null;
  const content = feed ? await calendarFeedDates(context.db, feed, cutoff) : null;
  // Else a person's own feed from Mein Wuff (Meine Kurse): only that person's course dates.
  const personId = !content && token ? await findOwnFeed(context.db, token) : null;
  if (personId !== null) return calendarResponse("Wuff: Meine Kurse", await ownFeedDates(context.db, personId, cutoff));
  if (!feed || !content) {
    return downloadResponse({ status: "missing", message: "Diesen Kalender gibt es nicht (mehr). Bitte frage im Verein nach dem aktuellen Link." });
  }
  return calendarResponse(feed.kind === "COURSE" ? `Wuff: ${content.subject}` : `Wuff: Kurse von ${content.subject}`, content.dates);
}

function calendarResponse(name: string, dates: FeedDate[]) {
  return downloadResponse({
    status: "found",
    body: courseDatesCalendar(name, dates),
    fileName: "wuff-kalender.ics",
    contentType: "text/calendar; charset=utf-8",
    disposition: "inline",
    // Behind a secret address: no search engine lists it.
    headers: { "X-Robots-Tag": "noindex" },
  });
}
