import { useId, useLayoutEffect, useRef } from "react";

/**
 * The 'still there?' dialog of the idle logout; any activity, Escape or the button keeps the
 * session. A native modal <dialog> (it exists only with JavaScript): over an open route dialog too.
 */
export default function IdleCountdown({ secondsLeft, onStay }: { secondsLeft: number; onStay: () => void }) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const mounted = useRef(false);
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    mounted.current = true;
    if (!dialog.open) dialog.showModal();
    return () => {
      mounted.current = false;
      // The focus goes back to where it was (e.g. the field of a dialog the user was filling in).
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      className="m-auto w-[500px] max-w-[calc(100%-2rem)] rounded border-0 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-black/30"
      onCancel={(event) => {
        if (!event.nativeEvent.cancelable) return;
        event.preventDefault();
        onStay();
      }}
      onClose={(event) => {
        // Closed by the browser itself (Escape without a user activation before it).
        if (event.currentTarget.open || !mounted.current) return;
        onStay();
      }}
    >
      <h2 id={titleId} className="text-lg font-semibold">
        Bist du noch da?
      </h2>
      <p className="mt-3" aria-live="assertive">
        Du wirst in {secondsLeft} Sekunden wegen Inaktivität abgemeldet.
      </p>
      <div className="mt-5 flex justify-end">
        <button type="button" onClick={onStay} className="rounded bg-wuff-700 px-4 py-2 text-white hover:bg-wuff-800">
          Angemeldet bleiben
        </button>
      </div>
    </dialog>
  );
}
