import { DialogAlert, DialogButtons, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { CopyButton } from "~/components/copy-button";
import type { PaymentLinkDialogData } from "./dialog.server";

/**
 * 'Zahlungslink erzeugen' for a fee: what the link is for, then the link itself, to open, to copy
 * (button with JavaScript) or to select in the read-only field (without).
 */
export default function PaymentLinkDialog({ data, actionData, closeHref }: DialogProps<PaymentLinkDialogData>) {
  const error = data.refusal ?? actionData?.error;
  return (
    <RouteDialog title="Zahlungslink erzeugen" closeHref={closeHref}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">Offener Posten</dt>
        <dd>{data.text}</dd>
        <dt className="text-slate-600">Person</dt>
        <dd>{data.personName}</dd>
        <dt className="text-slate-600">Offener Betrag</dt>
        <dd className="tabular-nums">{data.openAmount}</dd>
      </dl>
      {data.url ? (
        <div className="mt-4">
          {data.created && (
            <p role="status" className="mb-2 rounded border border-green-300 bg-green-50 p-2 text-sm text-green-900">
              Zahlungslink wurde erzeugt.
            </p>
          )}
          <label htmlFor="payment-link-url" className="mb-1 block text-sm font-medium text-slate-700">
            Zahlungslink
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <input
              id="payment-link-url"
              readOnly
              value={data.url}
              className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1.5 text-sm"
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton text={data.url} label="Zahlungslink kopieren" className="px-3 py-1.5 text-sm" />
          </div>
          <p className="mt-2 text-sm">
            <a href={data.url} target="_blank" rel="noopener" className="text-wuff-700 underline">
              Zahlungslink öffnen
            </a>
          </p>
        </div>
      ) : (
        <DialogForm intent="paymentLink:create">
          <input type="hidden" name="id" value={data.feeId} />
          <p className="mt-4 text-sm text-slate-700">
            Mollie erzeugt einen Zahlungslink über den offenen Betrag mit der Beschreibung „{data.description}“. Sobald bezahlt ist, bucht Wuff die Zahlung auf
            diesen Posten.
          </p>
          <DialogAlert message={error} />
          <DialogButtons submitLabel="Zahlungslink erzeugen" closeHref={closeHref} disabled={data.refusal !== null} reason={data.refusal} />
        </DialogForm>
      )}
    </RouteDialog>
  );
}
