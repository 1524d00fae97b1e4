import { Link } from "@remix-run/react";

const cardClass = "flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm";
const buttonClass = "inline-flex items-center rounded bg-wuff-700 px-4 py-2 text-sm font-medium text-white hover:bg-wuff-800";

/**
 * The mail tasks (ADMIN): birthday mails now, and the invoice mails, which Wuff does not send
 * (spec 001 §2: shown disabled; opening it says why). The mailshots have their own card.
 */
export function MailTaskCards() {
  return (
    <>
      <section aria-labelledby="birthday-mails-title" className={cardClass}>
        <h2 id="birthday-mails-title" className="text-lg font-semibold text-wuff-800">
          Geburtstagsmails senden
        </h2>
        <p className="text-sm text-slate-700">
          Schickt allen, die heute Geburtstag haben und eine E-Mail-Adresse hinterlegt haben, die „Geburtstagsmail“. Der tägliche Lauf am Morgen tut das von selbst; jede Person bekommt im Jahr nur eine.
        </p>
        <div>
          <Link to="?dialog=mailing-birthdays" preventScrollReset className={buttonClass}>
            Geburtstagsmails senden …
          </Link>
        </div>
      </section>
      <section aria-labelledby="invoice-mails-title" className={cardClass}>
        <h2 id="invoice-mails-title" className="text-lg font-semibold text-wuff-800">
          Rechnungsmails versenden
        </h2>
        <p className="text-sm text-slate-700">Rechnungen werden einzeln per „Mail senden“ bei der Rechnung verschickt, mit Vorschau.</p>
        <div>
          <Link to="?dialog=mailing-invoiceMails" preventScrollReset aria-disabled="true" className="inline-flex cursor-not-allowed items-center rounded bg-slate-300 px-4 py-2 text-sm font-medium text-slate-600">
            Rechnungsmails versenden
          </Link>
        </div>
      </section>
    </>
  );
}
