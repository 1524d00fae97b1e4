import { Link } from "@remix-run/react";
import { DialogAlert, DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { formatCount, formatDate, formatMoney } from "~/lib/format";
import type { DirectDebitPreview } from "~/models/direct-debits.server";

/** 'Lastschriftlauf vorbereiten': what the run will collect and from when, how it is announced,
 *  and who is left out without a mandate. */
export default function DirectDebitDialog({ data, actionData, closeHref }: DialogProps<DirectDebitPreview>) {
  const rows: [string, string][] = [
    ["Lastschriften (je Person und Fälligkeit)", formatCount(data.transactions, "Lastschrift", "Lastschriften")],
    ["offene Posten", formatCount(data.fees, "offener Posten", "offene Posten")],
    [
      "davon Erstlastschriften (FRST)",
      `${formatCount(data.bySequence.FRST.transactions, "Lastschrift", "Lastschriften")}, ${formatMoney(data.bySequence.FRST.total)}`,
    ],
    [
      "davon Folgelastschriften (RCUR)",
      `${formatCount(data.bySequence.RCUR.transactions, "Lastschrift", "Lastschriften")}, ${formatMoney(data.bySequence.RCUR.total)}`,
    ],
    ["Summe", formatMoney(data.total)],
    [
      "Vorabankündigungen",
      `${formatCount(data.notices.mail, "Mail", "Mails")}${data.notices.letter > 0 ? `, ${formatCount(data.notices.letter, "Brief", "Briefe")} zum Drucken` : ""}`,
    ],
  ];
  return (
    <RouteDialog title="Lastschriftlauf vorbereiten" closeHref={closeHref} width={600}>
      <DialogForm intent="directDebit:start">
        <table className="w-full text-sm">
          <caption className="mb-1 text-left font-medium text-slate-800">Vorschau</caption>
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label} className="border-b border-slate-100">
                <th scope="row" className="py-1 pr-3 text-left font-normal text-slate-600">
                  {label}
                </th>
                <td className="py-1 text-right tabular-nums">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-3">
          <label htmlFor="direct-debit-collection-date" className="mb-1 block text-sm font-medium text-slate-700">
            Einzug frühestens am
          </label>
          <input
            id="direct-debit-collection-date"
            name="collectionDate"
            defaultValue={formatDate(data.earliest)}
            placeholder="TT.MM.JJJJ"
            autoComplete="off"
            aria-describedby="direct-debit-collection-date-hint"
            className="block w-40 rounded border border-slate-300 px-2 py-1.5 text-sm focus:border-wuff-500 focus:outline-none focus:ring-1 focus:ring-wuff-500"
          />
          <p id="direct-debit-collection-date-hint" className="mt-1 text-sm text-slate-600">
            Zwischen {formatDate(data.earliest)} und {formatDate(data.latest)}: Jede Person erfährt Betrag, Einzugstag, Mandatsreferenz und Gläubiger-ID vorab,
            mindestens {data.noticeDays === 1 ? "einen Tag" : `${data.noticeDays} Tage`} vor dem Einzug (Einstellungen), und die Bank braucht die Datei einen
            TARGET2-Geschäftstag vorher.
          </p>
        </div>
        <p className="mt-3 text-sm text-slate-700">
          Eingezogen wird jeder offene Posten ohne Rechnung von Personen mit aktivem SEPA-Mandat, am Fälligkeitstag (ohne Fälligkeit: am Datum des Postens),
          frühestens am gewählten Tag; Posten, die erst nach dem {formatDate(data.latest)} fällig sind, bleiben für einen späteren Lauf. Zuerst gehen die
          Vorabankündigungen hinaus (per Mail, ohne E-Mail-Adresse als Brief zum Drucken), dann wird die Datei erstellt. Die Posten sind dann eingereicht und
          gelten als bezahlt, sobald der Kontoauszug die Gutschrift bucht (oder, wenn in den Einstellungen gewählt, zwei Bankarbeitstage nach dem Einzug);
          solange die Datei nicht an die Bank übergeben ist, lässt sich der Lauf stornieren.
        </p>
        {data.notices.letter > 0 && (
          <PeopleNotCollected
            id="direct-debit-letters"
            title={`Ohne E-Mail-Adresse (${formatCount(data.notices.letter, "Person", "Personen")}): Vorabankündigung als Brief`}
            note="Ihre Briefe liegen nach dem Lauf unter „Vorabankündigungen drucken“ bereit: bitte am selben Tag versenden."
            people={data.notices.withoutEmail.map((person) => ({ ...person, detail: "Brief" }))}
            more={data.notices.letter - data.notices.withoutEmail.length}
            linkTo={(personId) => `/people/${personId}`}
            muted
          />
        )}
        {data.missingCount > 0 && (
          <PeopleNotCollected
            id="direct-debit-missing"
            title={`Ohne aktives Mandat (${formatCount(data.missingCount, "Person", "Personen")}): nicht eingezogen`}
            people={data.missing.map((person) => ({ ...person, detail: `${formatCount(person.fees, "Posten", "Posten")}, ${formatMoney(person.total)}` }))}
            more={data.missingCount - data.missing.length}
          />
        )}
        {data.expired.length > 0 && (
          <PeopleNotCollected
            id="direct-debit-expired"
            title={`Mandat abgelaufen (${formatCount(data.expired.length, "Person", "Personen")}): nicht eingezogen`}
            note="Ein SEPA-Mandat, unter dem 36 Monate lang nicht eingezogen wurde, verfällt. Für weitere Lastschriften braucht es ein neues Mandat."
            people={data.expired.map((person) => ({
              ...person,
              detail: `gültig bis ${formatDate(person.validUntil)}; ${formatCount(person.fees, "Posten", "Posten")}, ${formatMoney(person.total)}`,
            }))}
          />
        )}
        {data.revoked.length > 0 && (
          <PeopleNotCollected
            id="direct-debit-revoked"
            title={`Mandat widerrufen oder gesperrt (${formatCount(data.revoked.length, "Person", "Personen")}): nicht eingezogen`}
            note="Nach dem Widerruf eines Mandats oder einer Rücklastschrift, die es sperrt, wird nicht mehr eingezogen. Für weitere Lastschriften braucht es ein neues Mandat."
            people={data.revoked.map((person) => ({
              ...person,
              detail: `${person.revocationReason ? `gesperrt ab ${formatDate(person.revokedOn)} nach ${person.revocationReason}` : `widerrufen zum ${formatDate(person.revokedOn)}`}; ${formatCount(person.fees, "Posten", "Posten")}, ${formatMoney(person.total)}`,
            }))}
          />
        )}
        {data.expiring.length > 0 && (
          <PeopleNotCollected
            id="direct-debit-expiring"
            title={`Mandat läuft in den nächsten zwei Monaten ab (${formatCount(data.expiring.length, "Person", "Personen")})`}
            note="Ohne Einziehung bis zu diesem Tag verfällt das Mandat."
            people={data.expiring.map((person) => ({ ...person, detail: `gültig bis ${formatDate(person.validUntil)}` }))}
            muted
          />
        )}
        <DialogAlert message={data.problem ?? actionData?.error} />
        <DialogButtons submitLabel="Lastschriften einziehen" closeHref={closeHref} disabled={data.problem !== null} reason={data.problem} />
      </DialogForm>
    </RouteDialog>
  );
}

const mandateOf = (personId: number) => `/people/${personId}?dialog=mandate-person&dialogId=${personId}`;

/** People the preview names (no mandate, an expired or revoked one, one expiring soon, no e-mail
 *  address), each linking to their mandate (or, `linkTo`, elsewhere). */
function PeopleNotCollected({
  id,
  title,
  note,
  people,
  more = 0,
  muted = false,
  linkTo = mandateOf,
}: {
  id: string;
  title: string;
  note?: string;
  people: { personId: number; name: string; detail: string }[];
  more?: number;
  muted?: boolean;
  linkTo?: (personId: number) => string;
}) {
  return (
    <section aria-labelledby={id} className={`mt-3 rounded border p-3 text-sm ${muted ? "border-slate-200 bg-slate-50" : "border-amber-300 bg-amber-50"}`}>
      <h3 id={id} className={`font-medium ${muted ? "text-slate-800" : "text-amber-900"}`}>
        {title}
      </h3>
      {note && <p className="mt-1">{note}</p>}
      <ul className="mt-1 list-disc pl-5">
        {people.map((person) => (
          <li key={person.personId}>
            <Link to={linkTo(person.personId)} className="text-wuff-700 underline">
              {person.name || `Person ${person.personId}`}
            </Link>{" "}
            – {person.detail}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="mt-1">und {more} weitere</p>}
    </section>
  );
}
