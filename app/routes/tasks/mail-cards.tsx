import { Link } from "@remix-run/react";
import { buttonClass, RunCard, TaskCard } from "~/components/run-screen";
import type { JobRow } from "~/models/jobs.server";
import { mailshotCard, MailshotStart } from "~/runs/mailshot.run";

/**
 * The mail tasks (ADMIN): a mailshot chosen with the selector (previewed mail by mail, then sent as
 * a bulk run), birthday mails now, and the invoice mails, which Wuff does not send (spec 001 §2:
 * shown disabled; opening it says why).
 */
export function MailTaskCards({ mailshots, job, now }: { mailshots: { id: number; name: string }[]; job: JobRow | undefined; now: string }) {
  return (
    <>
      <RunCard run={mailshotCard} job={job} now={now}>
        <MailshotStart mailshots={mailshots} />
      </RunCard>
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
