import { Form, Link, useLocation } from "@remix-run/react";
import { buttonClass } from "~/components/run-screen";
import { defineRun } from "./declare";

/** 'Mailshot senden' (Tasks; server half: mailshot.run.server.ts). Its start chooses the mailshot. */
export const mailshotCard = defineRun({
  type: "MAILSHOT",
  resumeIntent: "task:resume",
  id: "mailshot",
  title: "Mailshot senden",
  text: "Schickt einen vorbereiteten Mailshot an seine Empfänger. Die Vorschau zeigt jede Mail, wie sie verschickt wird, und wer ohne E-Mail-Adresse fehlt; jede Person bekommt je Lauf höchstens eine Mail.",
});

/** The mailshot chosen with the selector, then its preview mail by mail (dialog mailing-mailshot). */
export function MailshotStart({ mailshots }: { mailshots: { id: number; name: string }[] }) {
  const { pathname } = useLocation();
  return (
    <>
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
    </>
  );
}
