import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { Link, useNavigate, useNavigation } from "@remix-run/react";
import { useContext, useEffect, useId, type ReactNode } from "react";
import type { DialogActionData } from "~/dialogs/define.server";
import { DialogForm, DialogFormContext } from "./dialog-form";
import { AuditBlock, FormErrors, type AuditInfo } from "./forms/fields";
import { useHydrated } from "./use-hydrated";

type RouteDialogProps = {
  title: string;
  /** Where Abbruch, Escape and the close button lead: the page without the dialog. */
  closeHref: string;
  /** Width in px (spec: 500 unless stated). */
  width?: number;
  children: ReactNode;
};

const panelClass = "flex max-h-[90vh] max-w-full flex-col overflow-hidden rounded-lg bg-white shadow-xl";

/**
 * A dialog addressed by the URL, so it opens without JavaScript (a static modal in the page). With
 * JavaScript it is a Headless UI dialog: focus trapped and restored, Escape cancels. Clicking
 * outside never closes it (spec), so a half-filled form cannot be lost by a stray click.
 */
export function RouteDialog({ title, closeHref, width = 500, children }: RouteDialogProps) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const titleId = useId();

  useEffect(() => {
    if (!hydrated) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(closeHref, { preventScrollReset: true });
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [hydrated, closeHref, navigate]);

  const body = (
    <>
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-3">
        {hydrated ? (
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
        ) : (
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
        )}
        <Link to={closeHref} preventScrollReset className="text-slate-500 hover:text-slate-800" aria-label="Schließen">
          ✕
        </Link>
      </div>
      <div className="overflow-y-auto px-5 py-4">{children}</div>
    </>
  );

  if (!hydrated) {
    return (
      <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/30 p-4" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className={panelClass} style={{ width }}>
          {body}
        </div>
      </div>
    );
  }
  return (
    // onClose fires on outside clicks too: ignored on purpose, Escape is handled above.
    <Dialog open onClose={() => {}} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className={panelClass} style={{ width }}>
          {body}
        </DialogPanel>
      </div>
    </Dialog>
  );
}

/** The row of Speichern/Abbruch (or Löschen/Abbruch) at the end of a dialog form. */
export function DialogButtons({ submitLabel, closeHref, disabled = false, danger = false }: { submitLabel: string; closeHref: string; disabled?: boolean; danger?: boolean }) {
  const navigation = useNavigation();
  const dialog = useContext(DialogFormContext);
  const busy = dialog ? dialog.fetcher.state !== "idle" : navigation.state === "submitting";
  return (
    <div className="mt-5 flex justify-end gap-2 border-t border-slate-100 pt-4">
      <Link to={closeHref} preventScrollReset className="rounded border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50">
        Abbruch
      </Link>
      <button
        type="submit"
        disabled={disabled || busy}
        className={`rounded px-4 py-2 text-sm font-medium text-white disabled:cursor-not-allowed disabled:opacity-50 ${danger ? "bg-red-700 hover:bg-red-800" : "bg-wuff-700 hover:bg-wuff-800"}`}
      >
        {submitLabel}
      </button>
    </div>
  );
}

/** A refusal the server explains (e.g. a person with fees cannot be deleted). */
export function DialogAlert({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="mt-3 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800">
      {message}
    </p>
  );
}

/** 'Bist du sicher?' with one confirm button that posts `intent` with the record's id. */
export function ConfirmDialog({
  title,
  closeHref,
  intent,
  confirmLabel,
  id,
  message,
  details,
  error,
}: {
  title: string;
  closeHref: string;
  intent: string;
  confirmLabel: string;
  id: number;
  message: string;
  details?: string[];
  error?: string;
}) {
  return (
    <RouteDialog title={title} closeHref={closeHref}>
      <DialogForm intent={intent}>
        <input type="hidden" name="id" value={id} />
        <p>{message}</p>
        {details && details.length > 0 && (
          <ul className="mt-2 list-disc pl-5 text-sm text-slate-700">
            {details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        )}
        <DialogAlert message={error} />
        <DialogButtons submitLabel={confirmLabel} closeHref={closeHref} danger />
      </DialogForm>
    </RouteDialog>
  );
}

/** The end of every record dialog's form: its errors (the form's own, a stale save, a refusal from
 *  the server), who created and changed the record, and Speichern/Abbruch. */
export function RecordFormFooter({
  errors,
  errorId,
  actionData,
  audit,
  closeHref,
}: {
  errors?: string[];
  errorId: string;
  actionData: DialogActionData | undefined;
  audit?: AuditInfo;
  closeHref: string;
}) {
  return (
    <>
      <FormErrors errors={[...(errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} conflict={actionData?.conflict} id={errorId} />
      {audit && <AuditBlock audit={audit} />}
      <DialogButtons submitLabel="Speichern" closeHref={closeHref} />
    </>
  );
}
