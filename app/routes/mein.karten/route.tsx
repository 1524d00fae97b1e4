/**
 * Mein Wuff, Meine Karten & Abos (issue 34 item 4): the person's 10er-Karten with what is left and
 * until when, their subscriptions with period and end, and what each attendance took, of that
 * person only (requirePortalPerson). Buying is on its own page (mein.karten_.kaufen), an Abo is
 * ended with 'Verträge hier kündigen' (mein.kuendigen, § 312k BGB). Complete without JavaScript.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { PortalPage, PortalPart } from "~/components/portal";
import { CARD_KIND_LABELS } from "~/lib/cards";
import { formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { listCards, ownCardUses } from "~/models/cards.server";
import { requirePortalPerson } from "~/services/portal.server";

export const meta: MetaFunction = () => [{ title: "Meine Karten & Abos – Mein Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const { db } = args.context;
  const [cards, uses] = await Promise.all([
    listCards(db, { personId: person.id, sort: { id: "validFrom", descending: true }, today: todayInBerlin(), page: 1, pageSize: 100 }),
    ownCardUses(db, person.id),
  ]);
  return { cards: cards.rows, uses };
}

export default function MyCards() {
  const { cards, uses } = useLoaderData<typeof loader>();
  return (
    <PortalPage
      id="my-cards-title"
      title="Meine Karten & Abos"
      intro="Deine 10er-Karten und Abos: was noch übrig ist und bis wann sie gelten. Bei jedem Training, an dem du teilnimmst, wird die Einheit von der Karte genommen, die zuerst abläuft."
    >
      <p className="mt-3">
        <Link to="/mein/karten/kaufen" className="inline-block rounded bg-wuff-700 px-4 py-2 font-medium text-white hover:bg-wuff-800">
          Karte oder Abo kaufen
        </Link>
      </p>
      {cards.length === 0 && <p className="mt-4 text-slate-700">Du hast noch keine Karte und kein Abo.</p>}
      {cards.map((card) => (
        <PortalPart key={card.id} id={`card-${card.id}`} title={card.name}>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800">
            <dt className="text-slate-600">Art</dt>
            <dd>{CARD_KIND_LABELS[card.kind]}</dd>
            {card.kind === "CARD" && (
              <>
                <dt className="text-slate-600">Übrig</dt>
                <dd className="font-semibold">{`${card.balance} von ${card.units} Einheiten`}</dd>
              </>
            )}
            <dt className="text-slate-600">Gültig</dt>
            <dd>{card.validUntil ? `${formatDate(card.validFrom)} bis ${formatDate(card.validUntil)}` : `seit ${formatDate(card.validFrom)}`}</dd>
            <dt className="text-slate-600">Stand</dt>
            <dd>{card.state}</dd>
            <dt className="text-slate-600">Preis</dt>
            <dd>{card.kind === "CARD" ? formatMoney(card.price) : `${formatMoney(card.price)} je Zeitraum`}</dd>
          </dl>
          {card.kind === "SUBSCRIPTION" && !card.noticeReceivedOn && (
            <p className="mt-2 text-sm">
              <Link to={`/mein/kuendigen?abo=${card.id}`} className="text-wuff-800 underline">
                Dieses Abo kündigen<span className="sr-only">{` (${card.name})`}</span>
              </Link>
            </p>
          )}
          {uses.some((use) => use.cardId === card.id) && (
            <>
              <h3 className="mt-3 text-sm font-semibold text-slate-800">Genutzt</h3>
              <ul className="mt-1 space-y-0.5 text-sm text-slate-700">
                {uses
                  .filter((use) => use.cardId === card.id)
                  .map((use) => (
                    <li key={use.id}>{`${formatDate(use.day)}: ${use.courseName}${use.units > 1 ? ` (${use.units} Einheiten)` : ""}`}</li>
                  ))}
              </ul>
            </>
          )}
        </PortalPart>
      ))}
    </PortalPage>
  );
}
