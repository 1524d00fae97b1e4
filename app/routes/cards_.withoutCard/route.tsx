/**
 * Ohne Karte (issue 34 item 3; ADMIN, FINANCE): every tick in an open group counted by card that no
 * card or subscription covers and staff have not settled, the oldest first, each with the way to
 * settle it (the dialog 'Teilnahme ohne Karte erledigen' on the person's tab). The home page shows
 * the first ten and links here. Plain links: works without JavaScript.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { formatDate } from "~/lib/format";
import { attendanceWithoutCard } from "~/models/cards.server";
import { requireAccess } from "~/services/auth.server";
import { dialogAction } from "~/dialogs/kit.server";

const TITLE = "Teilnahmen ohne Karte";
/** More than a club settles at once; the oldest come first. */
const LIMIT = 500;

export const meta: MetaFunction = () => [{ title: `${TITLE} – Wuff` }];

/** The dialogs opened on the page (the shell's, e.g. Suche) post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["cards"], []);

export async function loader(args: LoaderFunctionArgs) {
  await requireAccess(args, "cards");
  const rows = await attendanceWithoutCard(args.context.db, LIMIT + 1);
  return { rows: rows.slice(0, LIMIT), more: rows.length > LIMIT };
}

export default function WithoutCard() {
  const { rows, more } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="without-card-title" className="max-w-3xl">
      <h1 id="without-card-title" className="mb-2 text-2xl font-semibold text-wuff-800">
        {TITLE}
      </h1>
      <p className="mb-4 text-sm text-slate-600">
        Anwesenheiten in offenen Gruppen, die keine gültige Karte und kein Abo abdeckt, die ältesten zuerst. Erledigen: Karte verkaufen, Einzelstunde berechnen
        oder erlassen.{" "}
        <Link to="/cards" className="text-blue-700 underline">
          Alle Karten &amp; Abos
        </Link>
      </p>
      {rows.length === 0 ? (
        <p className="text-slate-700">Keine Teilnahme ohne Karte.</p>
      ) : (
        <ul aria-label={TITLE} className="divide-y divide-slate-200 rounded border border-slate-200 bg-white">
          {rows.map((row) => (
            <li key={row.attendanceId} className="flex flex-wrap items-baseline justify-between gap-2 px-3 py-2">
              <span>
                <span className="font-medium">{row.personName}</span>
                <span className="block text-sm text-slate-600">{`${row.courseName} am ${formatDate(row.day)}`}</span>
              </span>
              <Link
                to={`/people/${row.personId}/cards?dialog=attendanceSettlement-settle&dialogId=${row.attendanceId}`}
                className="text-blue-700 underline"
                aria-label={`${row.personName}, ${formatDate(row.day)}: erledigen`}
              >
                erledigen …
              </Link>
            </li>
          ))}
        </ul>
      )}
      {more && <p className="mt-2 text-sm text-slate-600">{`Es gibt mehr als ${LIMIT}: erst diese erledigen.`}</p>}
    </section>
  );
}
