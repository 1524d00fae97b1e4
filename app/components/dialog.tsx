import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { Link, useNavigation } from "@remix-run/react";
import { useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode, type Ref } from "react";
import type { DialogActionData } from "~/dialogs/define.server";
import { applyCarriedFields, readChangedFields, restoreSelection, silenceForms } from "./carry-over-fields";
import { DataGrid } from "./data-grid/data-grid";
import { DialogForm, DialogFormContext, DialogGridsContext, DialogHistoryContext, useCloseDialog } from "./dialog-form";
import { AuditBlock, FormErrors, type AuditInfo } from "./forms/fields";
import { SaveGateReason } from "./forms/save-gate";
import { useHydrated } from "./use-hydrated";

type RouteDialogProps = {
  title: string;
  /** Where Abbruch, Escape and the close button lead: the page without the dialog. */
  closeHref: string;
  /** Width in px (spec: 500 unless stated). */
  width?: number;
  /** A fixed height (CSS, e.g. the participant dialog's 80vh); else as high as its content. */
  height?: string;
  children: ReactNode;
};

/** What a dialog focuses when it opens: its first field, else its first button. */
const FIRST_FIELD = "input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])";

const panelClass = "flex max-h-[90vh] max-w-full flex-col overflow-hidden rounded-lg bg-white shadow-xl";

/**
 * A dialog addressed by the URL, so it opens without JavaScript (a static modal in the page). With
 * JavaScript it is a Headless UI dialog: focus trapped and restored, Escape cancels. Clicking
 * outside never closes it (spec), so a half-filled form cannot be lost by a stray click.
 */
/** A link that closes the dialog: a plain link without JavaScript, a step back in history with it. */
export function CloseLink({ closeHref, className, label, children }: { closeHref: string; className: string; label?: string; children: ReactNode }) {
  const close = useCloseDialog(closeHref);
  return (
    <Link
      to={closeHref}
      preventScrollReset
      className={className}
      aria-label={label}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        close();
      }}
    >
      {children}
    </Link>
  );
}

export function RouteDialog({ title, closeHref, width = 500, height, children }: RouteDialogProps) {
  const hydrated = useHydrated();
  const close = useCloseDialog(closeHref);
  const titleId = useId();
  // Rendered by the server (the page opened with the dialog), the static dialog stays until Headless
  // UI's has its fields, and hands over what was typed in the same commit (see handOver).
  const [staticShown, setStaticShown] = useState(!hydrated);
  const staticDialog = useRef<HTMLDivElement | null>(null);
  const content = useRef<HTMLDivElement | null>(null);

  /**
   * Called as Headless UI's dialog puts its fields into the page. What the user typed or chose in
   * the static dialog, the field with the focus and its caret move over at once, before any other
   * key press can be handled: a key pressed between the two dialogs would otherwise be lost (the
   * old field gone, the new one not yet focused), and the form refused for a field the user filled.
   */
  const handOver = useCallback((node: HTMLDivElement | null) => {
    content.current = node;
    const previous = staticDialog.current;
    if (!node || !previous) return;
    const carried = readChangedFields(previous);
    silenceForms(previous);
    const focused = applyCarriedFields(node, carried);
    const field = focused ?? node.querySelector<HTMLElement>(FIRST_FIELD);
    // The content keeps its scroll position: the field was in view there already.
    field?.focus({ preventScroll: true });
    if (focused) restoreSelection(focused, carried);
    staticDialog.current = null;
    setStaticShown(false);
  }, []);

  useEffect(() => {
    // A dialog opened on a hydrated page: the first field gets the focus. Headless UI renders the
    // panel through a portal a moment later and focuses the dialog itself: wait for the field,
    // unless the user is already inside.
    if (!hydrated || staticShown) return;
    let frame = 0;
    let tries = 0;
    const focusFirstField = () => {
      const field = content.current?.querySelector<HTMLElement>(FIRST_FIELD);
      if (field) {
        if (!content.current?.contains(document.activeElement)) field.focus();
      } else if (++tries < 60) {
        frame = requestAnimationFrame(focusFirstField);
      }
    };
    frame = requestAnimationFrame(focusFirstField);
    return () => cancelAnimationFrame(frame);
    // Only when the dialog opens, not when the static one leaves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated]);

  useEffect(() => {
    if (!hydrated) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [hydrated, close]);

  const body = (titleElement: ReactNode, contentRef: Ref<HTMLDivElement>) => (
    <>
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-3">
        {titleElement}
        <CloseLink closeHref={closeHref} className="text-slate-500 hover:text-slate-800" label="Schließen">
          ✕
        </CloseLink>
      </div>
      <div ref={contentRef} data-dialog-content className="overflow-y-auto px-5 py-4">
        {children}
        <ChildGrids />
        <HistorySection />
      </div>
    </>
  );

  return (
    <>
      {staticShown && (
        <div
          ref={staticDialog}
          className="fixed inset-0 z-50 flex items-center justify-center bg-black/30 p-4"
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
        >
          <div className={panelClass} style={{ width, height }}>
            {body(
              <h2 id={titleId} className="text-lg font-semibold text-slate-900">
                {title}
              </h2>,
              null,
            )}
          </div>
        </div>
      )}
      {hydrated && (
        // onClose fires on outside clicks too: ignored on purpose, Escape is handled above.
        <Dialog open onClose={() => {}} className="fixed inset-0 z-50">
          <div className="fixed inset-0 bg-black/30" aria-hidden />
          <div className="fixed inset-0 flex items-center justify-center p-4">
            <DialogPanel className={panelClass} style={{ width, height }}>
              {body(<DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>, handOver)}
            </DialogPanel>
          </div>
        </Dialog>
      )}
    </>
  );
}

/** The CHILD grids under the dialog's record (e.g. a fee's Mahnungen), below its form. */
function ChildGrids() {
  const grids = useContext(DialogGridsContext);
  if (!grids) return null;
  return (
    <div className="mt-4 flex flex-col gap-4 border-t border-slate-200 pt-3">
      {grids.map((grid) => (
        <DataGrid key={grid.gridId} data={grid} />
      ))}
    </div>
  );
}

/**
 * 'Verlauf': the record's Änderungsverlauf below the dialog's form, newest first (wann, wer,
 * Aktion, über, Feld: alt → neu). A <details> element: it opens without JavaScript too.
 */
function HistorySection() {
  const entries = useContext(DialogHistoryContext);
  if (!entries) return null;
  return (
    <details className="mt-4 border-t border-slate-200 pt-3 text-sm" data-testid="record-history">
      <summary className="cursor-pointer font-medium text-slate-700">Verlauf ({entries.length})</summary>
      {entries.length === 0 ? (
        <p className="mt-2 text-slate-600">Noch keine Änderungen aufgezeichnet.</p>
      ) : (
        <ol className="mt-2 space-y-2">
          {entries.map((entry) => (
            <li key={entry.id} className="break-words rounded border border-slate-200 px-3 py-2">
              <p className="text-slate-700">
                <span className="font-medium">{entry.action}</span>
                {` am ${entry.when} von ${entry.who}${entry.source ? ` über ${entry.source}` : ""}`}
              </p>
              {entry.changes.length > 0 && (
                <ul className="mt-1 space-y-0.5 text-slate-600">
                  {entry.changes.map((change) => (
                    <li key={change.label}>
                      <span className="font-medium">{change.label}</span>
                      {`: ${change.from && change.to ? `${change.from} → ${change.to}` : change.to || change.from}`}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

/** The row of Speichern/Abbruch (or Löschen/Abbruch) at the end of a dialog form. */
export function DialogButtons({
  submitLabel,
  closeHref,
  disabled = false,
  danger = false,
  reason = null,
}: {
  submitLabel: string;
  closeHref: string;
  disabled?: boolean;
  danger?: boolean;
  /** Why the button is disabled (useSaveGate). */
  reason?: string | null;
}) {
  const navigation = useNavigation();
  const dialog = useContext(DialogFormContext);
  const busy = dialog ? dialog.fetcher.state !== "idle" : navigation.state === "submitting";
  const reasonId = useId();
  const why = disabled ? reason : null;
  return (
    <>
      <SaveGateReason id={reasonId} reason={why} />
      <div className="mt-5 flex justify-end gap-2 border-t border-slate-100 pt-4">
        <CloseLink closeHref={closeHref} className="rounded border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50">
          Abbruch
        </CloseLink>
        <button
          type="submit"
          disabled={disabled || busy}
          aria-describedby={why ? reasonId : undefined}
          className={`rounded px-4 py-2 text-sm font-medium text-white disabled:cursor-not-allowed disabled:opacity-50 ${danger ? "bg-red-700 hover:bg-red-800" : "bg-wuff-700 hover:bg-wuff-800"}`}
        >
          {submitLabel}
        </button>
      </div>
    </>
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
  saveBlocked = null,
}: {
  errors?: string[];
  errorId: string;
  actionData: DialogActionData | undefined;
  audit?: AuditInfo;
  closeHref: string;
  /** Why Speichern is disabled (useSaveGate's reason), or null. */
  saveBlocked?: string | null;
}) {
  return (
    <>
      <FormErrors errors={[...(errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} conflict={actionData?.conflict} id={errorId} />
      {audit && <AuditBlock audit={audit} />}
      <DialogButtons submitLabel="Speichern" closeHref={closeHref} disabled={saveBlocked !== null} reason={saveBlocked} />
    </>
  );
}
