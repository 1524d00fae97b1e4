import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";

/** The 'still there?' dialog of the idle logout; any activity or the button keeps the session. */
export default function IdleCountdown({ secondsLeft, onStay }: { secondsLeft: number; onStay: () => void }) {
  return (
    <Dialog open onClose={onStay} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-[500px] max-w-full rounded bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold">Bist du noch da?</DialogTitle>
          <p className="mt-3" aria-live="assertive">
            Du wirst in {secondsLeft} Sekunden wegen Inaktivität abgemeldet.
          </p>
          <div className="mt-5 flex justify-end">
            <button type="button" onClick={onStay} className="rounded bg-wuff-700 px-4 py-2 text-white hover:bg-wuff-800">
              Angemeldet bleiben
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
