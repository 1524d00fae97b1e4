import { Form, Link, useLocation } from "@remix-run/react";
import type { JobRow } from "~/models/jobs.server";
import { buttonClass, TaskCard } from "./task-card";

/**
 * The mail tasks (ADMIN): a mailshot chosen with the selector (previewed mail by mail, then sent as
 * a bulk run), birthday mails now, and the invoice mails, which Wuff does not send (spec 001 §2:
 * shown disabled; opening it says why).
 */
export function MailTaskCards({ mailshots, job, now }: { mailshots: { id: number; name: string }[]; job: JobRow | undefined; now: string }) {
  const { pathname } = useLocation();
  return (
    <>
      <TaskCard
        id="mailshot"
        title="Mailshot senden"
        text="Schickt einen vorbereiteten Mailshot an seine Empfänger. Die Vorschau zeigt jede Mail, wie sie verschickt wird, und wer ohne E-Mail-Adresse fehlt; jede Person bekommt je Lauf höchstens eine Mail."
        run={{ job, now }}
      >
        {mailshots.length === 0 ? (
          <p className="text-sm text-slate-600">Noch keine Mailshots angelegt.</p>
        ) : (
          <Form method="get" action={pathname} className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="dialog" value="mailing-mailshot" />
            <div>
              <label htmlFor="mailshot-choice" className="mb-1 block text-sm font-medium text-slate-700">
                Mailshot
              </label>
              <select id="mailshot-choice" name="dialogId" className="rounded border border-slate-300 px-2 py-1.5 text-sm">
                {mailshots.map((mailshot) => (
                  <option key={mailshot.id} value={mailshot.id}>
                    {mailshot.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={buttonClass}>
              Vorschau und senden …
            </button>
          </Form>
        )}
        <Link to="/mailshots" className="text-sm text-wuff-700 underline">
          Mailshots verwalten
        </Link>
      </TaskCard>
      <TaskCard
        id="birthday-mails"
        title="Geburtstagsmails senden"
        text="Schickt allen, die heute Geburtstag haben und eine E-Mail-Adresse hinterlegt haben, die „Geburtstagsmail“. Der tägliche Lauf am Morgen tut das von selbst; jede Person bekommt im Jahr nur eine."
      >
        <Link to="?dialog=mailing-birthdays" preventScrollReset className={buttonClass}>
          Geburtstagsmails senden …
        </Link>
      </TaskCard>
      <TaskCard
        id="invoice-mails"
        title="Rechnungsmails versenden"
        text="Rechnungen werden einzeln per „Mail senden“ bei der Rechnung verschickt, mit Vorschau."
      >
        <Link
          to="?dialog=mailing-invoiceMails"
          preventScrollReset
          aria-disabled="true"
          className="inline-flex cursor-not-allowed items-center rounded bg-slate-300 px-4 py-2 text-sm font-medium text-slate-600"
        >
          Rechnungsmails versenden
        </Link>
      </TaskCard>
    </>
  );
}
