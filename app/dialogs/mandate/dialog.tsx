import { getFormProps } from "@conform-to/react";
import { Link, useLocation } from "@remix-run/react";
import { useRecordForm } from "~/components/forms/record-form";
import { RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { CheckboxField, DateField, RecordKeys, TextAreaField, TextField } from "~/components/forms/fields";
import type { MandateDialogData, MandateFormRecord } from "./dialog.server";
import { mandateSchema, type MandateFormValues } from "./schema";

/** This page with other dialog parameters (a new mandate instead of the active one, a delete). */
function useDialogHref() {
  const location = useLocation();
  return (params: Record<string, string | null>) => {
    const search = new URLSearchParams(location.search);
    for (const [name, value] of Object.entries(params)) {
      if (value === null) search.delete(name);
      else search.set(name, value);
    }
    return `${location.pathname}?${search}`;
  };
}

/**
 * 'SEPA-Mandat von {Name}': the active mandate (untick 'Aktiv' to deactivate it) or a new one,
 * and the person's earlier mandates below.
 */
export default function MandateDialog({ data, actionData, closeHref }: DialogProps<MandateDialogData>) {
  const mandate = (actionData?.current as MandateFormRecord | undefined) ?? data.mandate;
  const [form, fields] = useRecordForm<MandateFormValues>(mandateSchema, {
    name: "mandate",
    record: mandate,
    values: mandate ?? data.defaults,
    lastResult: actionData?.result,
  });
  const href = useDialogHref();
  return (
    <RouteDialog title={`SEPA-Mandat von ${data.personName}`} closeHref={closeHref} width={640}>
      <p className="mb-3 text-sm text-slate-700">
        {mandate ? (
          <>
            Mandatsreferenz <strong>{mandate.reference}</strong> · nächste Lastschrift: {mandate.sequence}
            {mandate.firstCollectionOn && <> · erste Lastschrift am {mandate.firstCollectionOn}</>} · einziehbar bis {mandate.validUntil}
          </>
        ) : data.replacing ? (
          <>Neues Mandat: Es ersetzt das aktive Mandat {data.replacing}, das dann nicht mehr aktiv ist. Die Mandatsreferenz wird beim Speichern vergeben.</>
        ) : (
          <>Neues Mandat: Die Mandatsreferenz wird beim Speichern vergeben.</>
        )}
        {data.creditorId ? <> · Gläubiger-ID {data.creditorId}</> : <> · In den Einstellungen fehlt noch die Gläubiger-ID des Vereins.</>}
      </p>
      {mandate?.expiry && (
        <p role="alert" className="mb-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
          {mandate.expiry}
        </p>
      )}
      <DialogForm intent="mandate:save" {...getFormProps(form)}>
        <RecordKeys record={mandate} />
        <input type="hidden" name={fields.personId.name} value={data.personId} />
        <div className="grid grid-cols-2 gap-3">
          <TextField meta={fields.accountHolder} label="Kontoinhaber" className="col-span-2" />
          <TextField meta={fields.iban} label="IBAN" className="col-span-2" />
          <TextField meta={fields.bic} label="BIC (bei deutscher IBAN freiwillig)" />
          <DateField meta={fields.mandateDate} label="Datum des Mandats" />
          <DateField meta={fields.previousUseOn} label="Letzte Einziehung vor Wuff (falls bekannt)" />
          <DateField meta={fields.revokedOn} label="Widerrufen zum (ab diesem Tag kein Einzug)" />
          <CheckboxField meta={fields.isActive} label="Aktiv (ohne Haken: deaktiviert)" className="col-span-2" />
          <TextAreaField meta={fields.comments} label="Kommentar" className="col-span-2" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} audit={mandate?.audit} closeHref={closeHref} />
      </DialogForm>
      <p className="mt-3 flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {mandate && (
          <Link to={href({ "dialogDraft.new": "1", "dialogDraft.edit": null })} className="text-wuff-700 underline" replace>
            Neues Mandat anlegen (ersetzt dieses)
          </Link>
        )}
        {(data.replacing || (mandate && data.activeId !== null && mandate.id !== data.activeId)) && (
          <Link to={href({ "dialogDraft.new": null, "dialogDraft.edit": null })} className="text-wuff-700 underline" replace>
            Zurück zum aktiven Mandat
          </Link>
        )}
        {mandate && (
          <Link to={href({ dialog: "mandate-delete", dialogId: String(mandate.id), "dialogDraft.new": null })} className="text-wuff-700 underline">
            Mandat löschen
          </Link>
        )}
      </p>
      {data.others.length > 0 && (
        <section className="mt-4 border-t border-slate-200 pt-3">
          <h3 className="mb-2 text-sm font-semibold text-slate-800">Weitere Mandate</h3>
          <ul className="space-y-1 text-sm">
            {data.others.map((other) => (
              <li key={other.id} className="flex flex-wrap gap-x-3">
                <span className="font-medium">{other.reference}</span>
                <span>{other.iban}</span>
                <span>vom {other.mandateDate}</span>
                <span>{other.isActive ? "aktiv" : "inaktiv"}</span>
                {other.revokedOn && <span>widerrufen zum {other.revokedOn}</span>}
                <Link to={href({ "dialogDraft.edit": String(other.id), "dialogDraft.new": null })} className="text-wuff-700 underline" replace>
                  bearbeiten
                </Link>
                <Link to={href({ dialog: "mandate-delete", dialogId: String(other.id), "dialogDraft.new": null })} className="text-wuff-700 underline">
                  löschen
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </RouteDialog>
  );
}
