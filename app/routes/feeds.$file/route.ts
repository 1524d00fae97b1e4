import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { calendarFeedDates, feedCutoff, findCalendarFeed } from "~/models/calendar-feeds.server";
import { courseDatesCalendar } from "~/services/ics.server";

/**
 * GET /feeds/{token}.ics: a course's or a trainer's dates as a subscribable calendar (Kalender-Abos).
 * Public: calendar apps cannot log in, the token is the key. An unknown, malformed or renewed
 * token, or a feed whose course or trainer is gone, answers 404 with the same short text, so the
 * answer tells nothing about which. The token is never logged.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const file = params.file ?? "";
  const feed = file.endsWith(".ics") ? await findCalendarFeed(context.db, file.slice(0, -".ics".length)) : null;
  const content = feed ? await calendarFeedDates(context.db, feed, feedCutoff(new Date())) : null;
  if (!feed || !content) {
    return new Response("Diesen Kalender gibt es nicht (mehr). Bitte frage im Verein nach dem aktuellen Link.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const name = feed.kind === "COURSE" ? `Wuff: ${content.subject}` : `Wuff: Kurse von ${content.subject}`;
  return new Response(courseDatesCalendar(name, content.dates), {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="wuff-kalender.ics"',
      // Personal data behind a secret address: no shared cache keeps it, no search engine lists it.
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
