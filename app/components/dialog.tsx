import { Link, useNavigation } from "@remix-run/react";
import { useContext, useEffect, useId, useLayoutEffect, useRef, type ReactNode } from "react";
import type { DialogActionData } from "~/dialogs/define.server";
import { DataGrid } from "./data-grid/data-grid";
import { DialogForm, DialogFormContext, DialogGridsContext, DialogHistoryContext, useCloseDialog } from "./dialog-form";
import { AuditBlock, FormErrors, type AuditInfo } from "./forms/fields";
import { SaveGateReason } from "./forms/save-gate";
import { releaseTopLayerSlot, setTopLayerSlot } from "./top-layer";
import { isPlainClick } from "./plain-links";

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

/** Runs before the browser paints and handles the next event; on the server not at all (no warning). */
const useClientLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * The dialog as the whole window's overlay with its panel in the middle: the same as a page section
 * (an open <dialog> without JavaScript) and as a modal dialog in the top layer (with it). The
 * browser's own backdrop is not used: the dialog itself covers the window.
 */
const dialogClass =
  "fixed inset-0 z-50 m-0 h-full max-h-none w-full max-w-none items-center justify-center overflow-hidden border-0 bg-black/30 p-4 text-slate-900 open:flex backdrop:bg-transparent";
const panelClass = "flex max-h-[90vh] max-w-full flex-col overflow-hidden rounded-lg bg-white shadow-xl";

/** Where the caret (or the selection) is in a text field; null for elements without one. */
function selectionOf(element: Element): [number, number] | null {
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) return null;
  // Reading the selection of e.g. a check box gives null in browsers that follow the standard.
  const { selectionStart, selectionEnd } = element;
  return selectionStart === null || selectionEnd === null ? null : [selectionStart, selectionEnd];
}

/**
 * Makes the open <dialog> modal, in place: the same element, with what was typed into it. The
 * server renders it open as a page section (`open`), and `showModal()` refuses a dialog open that
 * way, so it is closed first and shown modal at once. The field the user is in keeps the focus and
 * its caret: it is marked `autofocus`, which is where showModal() puts the focus, so the focus
 * never leaves it (no blur, no validation of a half-typed field) and, all of it in one task, no
 * key press can come in between. When the focus was not inside, the first field gets it.
 */
function showModalInPlace(dialog: HTMLDialogElement) {
  if (!dialog.isConnected || dialog.matches(":modal")) return;
  const active = document.activeElement;
  const kept = active instanceof HTMLElement && active !== dialog && dialog.contains(active) ? active : null;
  const target = kept ?? dialog.querySelector<HTMLElement>(FIRST_FIELD);
  const selection = kept ? selectionOf(kept) : null;
  const content = dialog.querySelector<HTMLElement>("[data-dialog-content]");
  const scrollTop = content?.scrollTop ?? 0;
  const markedBefore = target?.hasAttribute("autofocus") ?? true;
  if (!markedBefore) target?.setAttribute("autofocus", "");
  try {
    if (dialog.open) dialog.close();
    dialog.showModal();
  } finally {
    if (!markedBefore) target?.removeAttribute("autofocus");
  }
  // The content keeps its scroll position: the field was in view there already.
  if (target && document.activeElement !== target) target.focus({ preventScroll: true });
  if (kept && selection && (kept instanceof HTMLInputElement || kept instanceof HTMLTextAreaElement)) {
    const [start, end] = selection;
    if (kept.selectionStart !== start || kept.selectionEnd !== end) kept.setSelectionRange(start, end);
  }
  if (content && content.scrollTop !== scrollTop) content.scrollTop = scrollTop;
}

/**
 * A dialog addressed by the URL: one native <dialog> element. The server renders it open, so it
 * shows without JavaScript (a section over the page whose form posts like any form). With
 * JavaScript the same element becomes modal where it is, as the page hydrates or, opened on a
 * running page, as it mounts: focus inside it, the rest of the page inert, Escape cancels. Clicking
 * outside never closes it (spec), so a half-filled form cannot be lost by a stray click.
 */
export function RouteDialog({ title, closeHref, width = 500, height, children }: RouteDialogProps) {
  const close = useCloseDialog(closeHref);
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const slotRef = useRef<HTMLDivElement>(null);
  const mounted = useRef(false);

  useClientLayoutEffect(() => {
    const dialog = dialogRef.current;
    const slot = slotRef.current;
    if (!dialog) return;
    mounted.current = true;
    showModalInPlace(dialog);
    setTopLayerSlot(slot);
    return () => {
      mounted.current = false;
      releaseTopLayerSlot(slot);
      // Closed before it leaves the page: the browser gives the focus back to where it was before
      // the dialog opened (the grid's own focus follows, see takeClosedDialog).
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={dialogRef}
      open
      aria-labelledby={titleId}
      className={dialogClass}
      onCancel={(event) => {
        // Escape: the page without the dialog, leaving no entry in the back history. A browser
        // that does not let the page keep the dialog open (no user activation yet) closes it
        // itself: then onClose follows.
        if (!event.nativeEvent.cancelable) return;
        event.preventDefault();
        close();
      }}
      onClose={(event) => {
        // Also fired, a moment later, by the close() that precedes showModal(): it is open again then.
        if (event.currentTarget.open || !mounted.current) return;
        close();
      }}
    >
      <div className={panelClass} style={{ width, height }}>
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-3">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <CloseLink closeHref={closeHref} className="text-slate-500 hover:text-slate-800" label="Schließen">
            ✕
          </CloseLink>
        </div>
        <div data-dialog-content className="overflow-y-auto px-5 py-4">
          {children}
          <ChildGrids />
          <HistorySection />
        </div>
      </div>
      {/* The toast and the pending bar while the dialog is modal (see InTopLayer). */}
      <div ref={slotRef} className="contents" />
    </dialog>
  );
}

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
        if (!isPlainClick(event)) return;
        event.preventDefault();
        close();
      }}
    >
      {children}
    </Link>
  );
}

/**
 * A link from one dialog to another that takes its place (e.g. from 'Teilnahme ohne Karte
 * erledigen' to 'Karte verkaufen'): without JavaScript a plain link. With it, the other dialog
 * replaces this one's entry in the history, so closing it leaves no trace of either (back goes
 * where this dialog came from, see useCloseDialog). Pressing it does not move the focus: the
 * field the focus left would be validated on blur (useRecordForm) for a form the user is leaving,
 * and its error, growing the centred panel, moved the link away from under the pointer before the
 * button came up, so the click never happened.
 */
export function DialogLink({ to, className, children }: { to: string; className: string; children: ReactNode }) {
  return (
    <Link to={to} replace preventScrollReset className={className} onMouseDown={(event) => event.preventDefault()}>
      {children}
    </Link>
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
  refusal,
}: {
  title: string;
  closeHref: string;
  intent: string;
  confirmLabel: string;
  id: number;
  message: string;
  details?: string[];
  error?: string;
  /** Why it cannot be done (the server refuses it too): the button stays disabled and says so. */
  refusal?: string;
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
        <DialogButtons submitLabel={confirmLabel} closeHref={closeHref} danger disabled={Boolean(refusal)} reason={refusal ?? null} />
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
