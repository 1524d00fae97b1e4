/**
 * Mein Wuff, Meine Karten & Abos (issue 34 item 4): the person's 10er-Karten with what is left and
 * until when, their subscriptions with period and end, and what each attendance took, of that
 * person only (requirePortalPerson). Buying is on its own page (mein.karten_.kaufen), an Abo is
 * ended with 'Verträge hier kündigen' (mein.kuendigen, § 312k BGB). Complete without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { z } from "zod";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PortalNotice, PortalPage, PortalPart, PortalSubmit } from "~/components/portal";
import { CARD_KIND_LABELS } from "~/lib/cards";
import { formatDate, formatDateTime, formatMoney, todayInBerlin } from "~/lib/format";
import { withdrawableCards, withdrawOwnCard } from "~/models/card-purchases.server";
import { listCards, ownCardUses } from "~/models/cards.server";
import { clientAddress, mailCardWithdrawal, requirePortalPerson, sendAfterAnswer } from "~/services/portal.server";
import { readForm } from "~/services/request.server";
import { redirectWithToast } from "~/services/toast.server";

export const meta: MetaFunction = () => [{ title: "Meine Karten & Abos – Mein Wuff" }];

export async function loader(args: LoaderFunctionArgs) {
  const { person } = await requirePortalPerson(args);
  const { db } = args.context;
  const [cards, uses, withdrawable] = await Promise.all([
    listCards(db, { personId: person.id, sort: { id: "validFrom", descending: true }, today: todayInBerlin(), page: 1, pageSize: 100 }),
    ownCardUses(db, person.id),
    withdrawableCards(db, person.id),
  ]);
  return { cards: cards.rows, uses, withdrawable };
}

const positive = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const withdrawSchema = z.object({ intent: z.literal("withdraw"), cardId: positive });

/** 'Vertrag widerrufen' of a card bought here (§ 355, § 356a BGB): the person's own only. */
export async function action(args: ActionFunctionArgs) {
  const { person, actor } = await requirePortalPerson(args);
  const { db, cloudflare } = args.context;
  const parsed = withdrawSchema.safeParse(Object.fromEntries(await readForm(args.request)));
  if (!parsed.success) return data({ error: "Bitte eine Karte aus der Liste wählen." }, { status: 400 });
  const outcome = await withdrawOwnCard(db, { personId: person.id, cardId: parsed.data.cardId, from: clientAddress(args.request) }, actor);
  if (outcome.status === "missing") return data({ error: "Diese Karte gibt es bei dir nicht (mehr)." }, { status: 404 });
  if (outcome.status === "refused") return data({ error: outcome.message }, { status: 409 });
  sendAfterAnswer(
    args.context,
    mailCardWithdrawal(cloudflare.env, db, {
      person,
      product: outcome.name,
      boughtOn: outcome.boughtOn,
      receivedOn: outcome.receivedOn,
      moneyText: outcome.moneyText,
    }),
    "Bestätigung des Widerrufs",
  );
  return redirectWithToast(cloudflare.env, "/mein/karten", {
    type: "success",
    message: `Dein Widerruf ist am ${formatDateTime(outcome.receivedOn)} Uhr eingegangen: ${outcome.name} gilt nicht mehr. ${outcome.moneyText}`.trim(),
  });
}

export default function MyCards() {
  const { cards, uses, withdrawable } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ error: string }>();
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
      {actionData?.error && <PortalNotice tone="error">{actionData.error}</PortalNotice>}
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
          <WithdrawCard card={card} until={withdrawable.find((candidate) => candidate.cardId === card.id)?.until} />
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

/**
 * 'Vertrag widerrufen' of a card bought here while the period runs: the declaration to confirm, then
 * 'Widerruf bestätigen' (two steps without JavaScript too: a details element, then the button).
 */
function WithdrawCard({ card, until }: { card: { id: number; name: string }; until: string | undefined }) {
  if (!until) return null;
  return (
    <details className="mt-3 rounded border-2 border-wuff-700 p-3">
      <summary className="cursor-pointer font-semibold text-wuff-800">
        Vertrag widerrufen<span className="sr-only">{` (${card.name})`}</span>
      </summary>
      <Form method="post" aria-label={`Vertrag ${card.name} widerrufen`} className="mt-2">
        <p className="text-sm text-slate-700">
          {`Hiermit widerrufe ich den online geschlossenen Vertrag über ${card.name}. Widerrufen kannst du bis ${formatDate(until)}. Die Karte gilt dann nicht mehr; was du bis dahin genutzt hast, zahlst du anteilig, wenn du den frühen Beginn verlangt hast. Die Bestätigung bekommst du per E-Mail.`}
        </p>
        <input type="hidden" name="intent" value="withdraw" />
        <input type="hidden" name="cardId" value={card.id} />
        <PortalSubmit>Widerruf bestätigen</PortalSubmit>
      </Form>
    </details>
  );
}
