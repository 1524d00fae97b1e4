import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { homePanels } from "~/models/home.server";
import { useRootData } from "~/root";
import { readForOptionalUser } from "~/services/auth.server";
import { homeCards, type HomeCard } from "./cards.server";

export const meta: MetaFunction = () => [{ title: "Wuff" }];

/**
 * Home: public. Logged out it only greets (no D1 read of its own). Logged in, the panels the user's
 * roles may see (HOME_PANEL_AREAS), read in the round trip of the session lookup.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { value } = await readForOptionalUser(args, (user) => homePanels(args.context.db, user));
  return { cards: value ? homeCards(value) : null };
}

function Card({ card }: { card: HomeCard }) {
  const headingId = `home-${card.id}`;
  const count = card.groups.reduce((sum, group) => sum + group.entries.length, 0);
  return (
    <section
      aria-labelledby={headingId}
      data-panel={card.id}
      className="flex min-w-0 flex-col gap-3 break-words rounded-xl border border-slate-300 bg-white p-4 break-inside-avoid"
    >
      <h2 id={headingId} className="text-lg font-bold text-wuff-800">
        {card.title}
      </h2>
      {count === 0 && <p className="text-slate-700">{card.empty}</p>}
      {card.groups.map((group) => (
        <div key={group.heading ?? "entries"} className="flex flex-col gap-1">
          {group.heading && <h3 className="font-semibold text-slate-800">{group.heading}</h3>}
          <ul className="flex flex-col divide-y divide-slate-200">
            {group.entries.map((entry) => (
              <li key={entry.key} className="py-1.5">
                <Link to={entry.href} className="font-semibold text-wuff-800 underline-offset-2 hover:underline print:text-slate-950 print:no-underline">
                  {entry.title}
                </Link>
                {entry.note && <span className={entry.warn ? " font-semibold text-red-800" : " text-slate-700"}> – {entry.note}</span>}
                {entry.detail && (
                  <span className={`block text-sm ${entry.warn && !entry.note ? "font-semibold text-red-800" : "text-slate-700"}`}>{entry.detail}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {card.more && (
        <Link to={card.more.href} className="self-start text-sm font-semibold text-wuff-800 underline print:hidden">
          {card.more.label}
        </Link>
      )}
    </section>
  );
}

export default function Home() {
  const user = useRootData()?.user;
  const { cards } = useLoaderData<typeof loader>();
  return (
    <>
      <section className="mx-auto max-w-2xl py-10 text-center print:py-2">
        <h1 className="text-3xl font-bold text-wuff-800">Willkommen bei Wuff!</h1>
        {!user && <p className="mt-4 text-slate-600">Du bist noch nicht eingeloggt.</p>}
      </section>
      {user && cards && cards.length > 0 && (
        <div
          aria-label="Auf einen Blick"
          role="region"
          className="mx-auto grid w-full max-w-6xl grid-cols-1 items-start gap-4 pb-8 md:grid-cols-2 xl:grid-cols-3 print:grid-cols-2"
        >
          {cards.map((card) => (
            <Card key={card.id} card={card} />
          ))}
        </div>
      )}
    </>
  );
}
