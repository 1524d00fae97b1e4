import { CloseLink, DialogAlert, DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { formatDate } from "~/lib/format";
import type { MailingDialogData } from "./dialog.server";

/** The confirmations of the mail tasks (Tasks screen). */
export default function MailingDialog({ data, actionData, closeHref }: DialogProps<MailingDialogData>) {
  switch (data.kind) {
    case "birthdays": {
      const open = data.people.filter((person) => person.status === "offen" || person.status === "fehlgeschlagen").length;
      return (
        <RouteDialog title="Geburtstagsmails senden" closeHref={closeHref}>
          <DialogForm intent="mailing:birthdays">
            <p className="text-sm text-slate-700">Geburtstage am {formatDate(data.today)} (Personen mit E-Mail-Adresse). Jede Person bekommt im Jahr nur eine Geburtstagsmail, auch wenn der tägliche Lauf sie schon verschickt hat.</p>
            {data.people.length === 0 ? (
              <p className="mt-3">Keine Mails zu versenden: Heute hat niemand mit E-Mail-Adresse Geburtstag.</p>
            ) : (
              <ul className="mt-3 list-disc pl-5 text-sm">
                {data.people.map((person) => (
                  <li key={person.id}>
                    {person.name} ({person.email}): {person.status}
                  </li>
                ))}
              </ul>
            )}
            <DialogAlert message={data.problem ?? actionData?.error} />
            <DialogButtons submitLabel="Geburtstagsmails senden" closeHref={closeHref} disabled={data.problem !== null || open === 0} reason={data.problem ?? (open === 0 ? "Keine Mails zu versenden" : null)} />
          </DialogForm>
        </RouteDialog>
      );
    }
    case "invoiceMails":
      return (
        <RouteDialog title="Rechnungsmails versenden" closeHref={closeHref}>
          <p role="alert">{data.message}</p>
          <div className="mt-5 flex justify-end border-t border-slate-100 pt-4">
            <CloseLink closeHref={closeHref} className="rounded border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50">
              Schließen
            </CloseLink>
          </div>
        </RouteDialog>
      );
  }
}
