import { RouteDialog, DialogAlert, DialogButtons } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import type { ErasurePreview } from "./dialog.server";
import { BIN_KEEPS_NOTHING } from "./texts";

/**
 * '{Name} löschen (DSGVO)': what the erasure removes and what it keeps and why, then the person's name
 * typed as the confirmation. Works the same without JavaScript (a plain form post).
 */
export default function ErasureDialog({ data, actionData, closeHref }: DialogProps<ErasurePreview>) {
  const nameError = actionData?.result?.error?.confirmName?.[0];
  return (
    <RouteDialog title={`${data.fullName} löschen (DSGVO)`} closeHref={closeHref} width={720}>
      <DialogForm intent="erasure:erase">
        <input type="hidden" name="id" value={data.personId} />
        <input type="hidden" name="fingerprint" value={data.fingerprint} />
        <p className="text-sm text-slate-700">{data.summary}</p>
        <p className="mt-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">{BIN_KEEPS_NOTHING}</p>
        <section aria-labelledby="erasure-erase" className="mt-3">
          <h3 id="erasure-erase" className="font-semibold">
            Wird gelöscht
          </h3>
          <ul className="ml-5 list-disc text-sm">
            {data.erase.map((group) => (
              <li key={group.label}>
                <strong>{group.label}</strong>: {group.items.join("; ")}
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="erasure-retain" className="mt-3">
          <h3 id="erasure-retain" className="font-semibold">
            Bleibt aufbewahrt
          </h3>
          {data.retain.length === 0 ? (
            <p className="text-sm">Nichts.</p>
          ) : (
            <ul className="ml-5 list-disc text-sm">
              {data.retain.map((group) => (
                <li key={`${group.label}-${group.reason}`}>
                  <strong>{group.label}</strong>: {group.items.join("; ")}. <em>Warum:</em> {group.reason}
                </li>
              ))}
            </ul>
          )}
        </section>
        <div className="mt-4">
          <label htmlFor="erasure-confirm-name" className="block text-sm font-medium">
            Zur Bestätigung den Namen der Person eingeben: <strong>{data.fullName}</strong>
          </label>
          <input
            id="erasure-confirm-name"
            name="confirmName"
            type="text"
            required
            autoComplete="off"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "erasure-confirm-name-error" : undefined}
            className="mt-1 w-full rounded border border-slate-300 px-2 py-1"
          />
          {nameError && (
            <p id="erasure-confirm-name-error" className="mt-1 text-sm text-red-700">
              {nameError}
            </p>
          )}
        </div>
        <DialogAlert message={actionData?.error} />
        <DialogButtons
          submitLabel="Endgültig löschen"
          closeHref={closeHref}
          danger
          disabled={data.erasedOn !== null}
          reason={data.erasedOn ? "Diese Person wurde bereits gelöscht." : null}
        />
      </DialogForm>
    </RouteDialog>
  );
}
