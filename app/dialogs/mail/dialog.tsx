import { getFormProps } from "@conform-to/react";
import { Link, useLocation } from "@remix-run/react";
import { useHydrated } from "~/components/use-hydrated";
import { usePolling } from "~/components/use-polling";
import { DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { FormErrors, TextField } from "~/components/forms/fields";
import { useRecordForm } from "~/components/forms/record-form";
import type { MailPreviewData } from "./dialog.server";
import { mailSendSchema, type MailSendValues } from "./schema";

/** How often the dialog asks again while a run makes the invoice's PDF. */
const PDF_POLL_MS = 2000;

const navClass = "rounded border border-slate-300 px-3 py-1.5 text-sm";

/** Previous/Next: links to the same dialog on the neighbouring record of the list (plain links without JavaScript). */
function Step({ label, id, rel }: { label: string; id: number | null; rel: "prev" | "next" }) {
  const { pathname, search } = useLocation();
  if (id === null) {
    return (
      <button type="button" disabled className={`${navClass} cursor-not-allowed text-slate-400`}>
        {label}
      </button>
    );
  }
  const params = new URLSearchParams(search);
  params.set("dialogId", String(id));
  return (
    <Link to={`${pathname}?${params}`} replace preventScrollReset rel={rel} className={`${navClass} hover:bg-slate-50`}>
      {label}
    </Link>
  );
}

/**
 * The mail preview (spec 001 §2: 800 px wide, 80 vh high): the mail as it will go out, rendered in
 * a sandboxed frame (no scripts, no links out of it), the subject to edit, to, cc and the invoice
 * attachment only shown. Outside production it says where the mail really goes.
 */
export default function MailDialog({ data, actionData, closeHref }: DialogProps<MailPreviewData>) {
  const [form, fields] = useRecordForm<MailSendValues>(mailSendSchema, {
    name: "mail",
    record: null,
    values: { source: data.source, id: data.id, subject: data.subject },
    lastResult: actionData?.result,
    version: `${data.source}${data.id}`,
  });
  const { browse } = data;
  const hydrated = useHydrated();
  usePolling(hydrated && data.pdfPending, PDF_POLL_MS);
  // Waiting for the PDF: with JavaScript the dialog looks again by itself; without, a reload does.
  const problem =
    data.pdfPending && data.problem
      ? `${data.problem} ${hydrated ? "Senden wird von selbst frei, sobald es da ist." : "Bitte lade die Seite in einer Minute neu; ist das PDF da, ist Senden frei."}`
      : data.problem;
  return (
    <RouteDialog title={`Mail senden: ${data.label}`} closeHref={closeHref} width={800} height="80vh">
      <DialogForm intent="mail:send" {...getFormProps(form)}>
        <input type="hidden" name="source" value={data.source} />
        <input type="hidden" name="id" value={data.id} />
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-600">An</dt>
          <dd>
            <input
              readOnly
              aria-label="An"
              value={data.to ? `${data.personName} <${data.to}>` : `${data.personName} (keine E-Mail-Adresse)`}
              className="w-full rounded border border-slate-200 bg-slate-50 px-2 py-1"
            />
            {data.sentTo && data.sentTo !== data.to && <span className="text-amber-800">Testsystem: geht nur an den SMTP Test Account {data.sentTo}</span>}
          </dd>
          <dt className="text-slate-600">Cc</dt>
          <dd>
            <input readOnly aria-label="Cc" value={data.cc} className="w-full rounded border border-slate-200 bg-slate-50 px-2 py-1" />
          </dd>
          <dt className="text-slate-600">Anhang</dt>
          <dd className="flex items-center gap-2">
            <input type="checkbox" checked={data.attachInvoice} readOnly disabled aria-label="Rechnung anhängen" />
            <span>Rechnung anhängen{data.attachInvoice ? `: ${data.attachment ?? "noch kein PDF"}` : ""}</span>
          </dd>
          <dt className="text-slate-600">Vorlage</dt>
          <dd>{data.template}</dd>
        </dl>
        <TextField meta={fields.subject} label="Betreff" className="mt-3" />
        {data.html ? (
          <iframe title="Vorschau der Mail" sandbox="" srcDoc={data.html} className="mt-3 h-[38vh] w-full rounded border border-slate-200 bg-white" />
        ) : null}
        {data.text && (
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer text-slate-700">Textfassung</summary>
            <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-50 p-2 font-sans">{data.text}</pre>
          </details>
        )}
        {data.notice && <p className="mt-3 rounded border border-sky-300 bg-sky-50 p-3 text-sm text-sky-900">{data.notice}</p>}
        {problem && (
          <p role="alert" aria-busy={data.pdfPending || undefined} className="mt-3 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            {problem}
          </p>
        )}
        <FormErrors errors={[...(form.errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} id={form.errorId} />
        <div className="mt-3 flex items-center gap-2">
          <Step label="‹ Vorheriger" id={browse.previous} rel="prev" />
          <span className="text-sm text-slate-600">
            {browse.position} von {browse.count}
          </span>
          <Step label="Nächster ›" id={browse.next} rel="next" />
        </div>
        <DialogButtons submitLabel="Senden" closeHref={closeHref} disabled={problem !== null} reason={problem} />
      </DialogForm>
    </RouteDialog>
  );
}
