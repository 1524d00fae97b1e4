import { Link, useLocation } from "@remix-run/react";
import { CloseLink, DialogAlert, DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { formatDate } from "~/lib/format";
import type { MailingDialogData, MailshotPreview } from "./dialog.server";

const navClass = "rounded border border-slate-300 px-3 py-1.5 text-sm";

/** Previous/Next recipient: links (without JavaScript too), disabled at the ends. */
function Step({ label, at, rel }: { label: string; at: number | null; rel: "prev" | "next" }) {
  const { pathname, search } = useLocation();
  if (at === null) {
    return (
      <button type="button" disabled className={`${navClass} cursor-not-allowed text-slate-400`}>
        {label}
      </button>
    );
  }
  const params = new URLSearchParams(search);
  params.set("dialogAt", String(at));
  return (
    <Link to={`${pathname}?${params}`} replace preventScrollReset rel={rel} className={`${navClass} hover:bg-slate-50`}>
      {label}
    </Link>
  );
}

/** The mailshot's preview (800 px x 80 vh like the single mail's): each recipient's mail, who is left out. */
function MailshotDialog({ data, error, closeHref }: { data: MailshotPreview; error?: string; closeHref: string }) {
  const { mailshot, current } = data;
  return (
    <RouteDialog title={mailshot ? `Mailshot „${mailshot.name}“ senden` : "Mailshot senden"} closeHref={closeHref} width={800} height="80vh">
      <DialogForm intent="mailing:mailshot">
        {mailshot && (
          <>
            <input type="hidden" name="id" value={mailshot.id} />
            <p className="text-sm text-slate-700">
              {mailshot.recipients}: {data.count} Empfänger mit E-Mail-Adresse und Einwilligung · Vorlage {mailshot.template}
              {mailshot.cc ? ` · Cc ${mailshot.cc}` : ""}
            </p>
            {data.leftOut.length > 0 && (
              <details className="mt-1 text-sm">
                <summary className="cursor-pointer text-amber-800">{`Bekommen keine Mail: ${data.leftOut.length}`}</summary>
                <p className="mt-1 text-slate-700">{data.leftOut.map((person) => `${person.name} (${person.reason})`).join(", ")}</p>
              </details>
            )}
          </>
        )}
        {current && (
          <div className="mt-3">
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-600">An</dt>
              <dd>
                {current.name} &lt;{current.to}&gt;
                {current.sentTo && current.sentTo !== current.to && <span className="ml-2 text-amber-800">(Testsystem: geht an {current.sentTo})</span>}
              </dd>
              <dt className="text-slate-600">Betreff</dt>
              <dd>{current.subject}</dd>
              <dt className="text-slate-600">Anhänge</dt>
              <dd>{current.attachments.length > 0 ? current.attachments.join(", ") : "keine"}</dd>
            </dl>
            <iframe title="Vorschau der Mail" sandbox="" srcDoc={current.html} className="mt-2 h-[36vh] w-full rounded border border-slate-200 bg-white" />
            <div className="mt-2 flex items-center gap-2">
              <Step label="‹ Vorherige" at={data.at > 1 ? data.at - 1 : null} rel="prev" />
              <span className="text-sm text-slate-600">
                Mail {data.at} von {data.count}
              </span>
              <Step label="Nächste ›" at={data.at < data.count ? data.at + 1 : null} rel="next" />
            </div>
          </div>
        )}
        <DialogAlert message={data.problem ?? error} />
        <DialogButtons submitLabel={`${data.count} Mails senden`} closeHref={closeHref} disabled={data.problem !== null} reason={data.problem} />
      </DialogForm>
    </RouteDialog>
  );
}

/** The confirmations of the mail tasks (Tasks screen). */
export default function MailingDialog({ data, actionData, closeHref }: DialogProps<MailingDialogData>) {
  switch (data.kind) {
    case "birthdays": {
      const open = data.people.filter((person) => person.status === "offen" || person.status === "fehlgeschlagen").length;
      return (
        <RouteDialog title="Geburtstagsmails senden" closeHref={closeHref}>
          <DialogForm intent="mailing:birthdays">
            <p className="text-sm text-slate-700">
              Geburtstage am {formatDate(data.today)} (Personen mit E-Mail-Adresse). Jede Person bekommt im Jahr nur eine Geburtstagsmail, auch wenn der
              tägliche Lauf sie schon verschickt hat.
            </p>
            {data.people.length === 0 ? (
              <p className="mt-3">Keine Mails zu versenden: Heute hat niemand mit E-Mail-Adresse und Einwilligung Geburtstag.</p>
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
            <DialogButtons
              submitLabel="Geburtstagsmails senden"
              closeHref={closeHref}
              disabled={data.problem !== null || open === 0}
              reason={data.problem ?? (open === 0 ? "Keine Mails zu versenden" : null)}
            />
          </DialogForm>
        </RouteDialog>
      );
    }
    case "mailshot":
      return <MailshotDialog data={data} error={actionData?.error} closeHref={closeHref} />;
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
