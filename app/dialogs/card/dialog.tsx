import { getFormProps } from "@conform-to/react";
import { useRecordForm } from "~/components/forms/record-form";
import { DialogAlert, DialogButtons, RecordFormFooter, RouteDialog } from "~/components/dialog";
import { DialogForm, type DialogProps } from "~/components/dialog-form";
import { DateField, FormErrors, LockedField, LookupSearch, LookupSelect, MoneyField, SelectField } from "~/components/forms/fields";
import { formatCount, formatMoney } from "~/lib/format";
import type { CardDialogData, CardNoticeDialogData, CardRefundDialogData, CardSaleDialogData } from "./dialog.server";
import { cardNoticeSchema, cardSaleSchema, type CardNoticeFormValues, type CardSaleFormValues } from "./schema";

/** Karten & Abos: sell one, record a subscription's notice, refund a card's unused units. */
export default function CardDialog(props: DialogProps<CardDialogData>) {
  const { data } = props;
  switch (data.kind) {
    case "sale":
      return <CardSaleDialog {...props} data={data} />;
    case "notice":
      return <CardNoticeDialog {...props} data={data} />;
    case "refund":
      return <CardRefundDialog {...props} data={data} />;
  }
}

/** 'Karte verkaufen': a 10er-Karte or an Abo for a person, with its fee. */
function CardSaleDialog({ data, actionData, closeHref }: DialogProps<CardSaleDialogData>) {
  const [form, fields] = useRecordForm<CardSaleFormValues>(cardSaleSchema, {
    name: "card",
    record: null,
    values: data.defaults,
    lastResult: actionData?.result,
  });
  const personLabel = data.people.find((person) => person.id === data.defaults.personId)?.label ?? "";
  return (
    <RouteDialog title="Karte verkaufen" closeHref={closeHref}>
      {!data.personLocked && <LookupSearch field="personId" label="Person suchen" term={data.personSearch} />}
      <DialogForm intent="card:save" {...getFormProps(form)}>
        <div className="grid grid-cols-2 gap-3">
          {data.personLocked ? (
            <LockedField name={fields.personId.name} label="Person" id={data.defaults.personId} text={personLabel} />
          ) : (
            <LookupSelect meta={fields.personId} label="Person" options={data.people} emptyHint="Erst Person suchen" />
          )}
          <SelectField meta={fields.productId} label="Karte oder Abo" className="col-span-2" options={data.products} placeholder="bitte wählen" />
          <DateField meta={fields.validFrom} label="Gültig ab" />
          <MoneyField meta={fields.price} label="Preis (leer: laut Produkt)" />
        </div>
        <RecordFormFooter errors={form.errors} errorId={form.errorId} actionData={actionData} closeHref={closeHref} />
      </DialogForm>
    </RouteDialog>
  );
}

/** 'Kündigung eintragen': the day the notice arrived; the server says the end it sets. */
function CardNoticeDialog({ data, actionData, closeHref }: DialogProps<CardNoticeDialogData>) {
  const [form, fields] = useRecordForm<CardNoticeFormValues>(cardNoticeSchema, {
    name: "cardNotice",
    record: null,
    values: data.values,
    lastResult: actionData?.result,
  });
  return (
    <RouteDialog title={`Kündigung: ${data.card.name}`} closeHref={closeHref}>
      <DialogForm intent="card:notice" {...getFormProps(form)}>
        <input type="hidden" name={fields.id.name} value={data.card.id} />
        <p className="mb-3 text-sm text-slate-700">
          {`${data.card.personName}, Abo seit ${data.card.validFrom}: ${data.card.terms}. `}
          Das Abo endet mit Ablauf der Kündigungsfrist ab Eingang der Kündigung, frühestens mit dem Ende der Mindestlaufzeit (§ 309 Nr. 9 BGB). Beiträge laufen
          bis dahin, der letzte Zeitraum anteilig.
        </p>
        <DateField meta={fields.noticeOn} label="Kündigung eingegangen am" />
        <FormErrors errors={[...(form.errors ?? []), ...(actionData?.error ? [actionData.error] : [])]} id={form.errorId} />
        <DialogAlert message={data.refusal ?? undefined} />
        <DialogButtons submitLabel="Kündigung eintragen" closeHref={closeHref} disabled={data.refusal !== null} reason={data.refusal} />
      </DialogForm>
    </RouteDialog>
  );
}

/** 'Restguthaben erstatten': the unused units' share of the price, by a credit note on the sale's invoice. */
function CardRefundDialog({ data, actionData, closeHref }: DialogProps<CardRefundDialogData>) {
  const { refundable } = data;
  return (
    <RouteDialog title={`Restguthaben erstatten: ${refundable.name}`} closeHref={closeHref}>
      <DialogForm intent="card:refund">
        <input type="hidden" name="id" value={refundable.cardId} />
        <input type="hidden" name="formKey" value={data.formKey} />
        <p className="text-sm text-slate-700">
          {`${refundable.personName}: noch ${formatCount(refundable.balance, "Einheit", "Einheiten")} von ${refundable.units} übrig. `}
          {refundable.invoice
            ? `Erstattet werden ${formatMoney(refundable.amount)} per Gutschrift zu Rechnung ${refundable.invoice.number}; danach ist die Karte aufgebraucht.`
            : `Erstattet würden ${formatMoney(refundable.amount)}.`}
        </p>
        <DialogAlert message={refundable.refusal ?? actionData?.error} />
        <DialogButtons submitLabel="Gutschrift ausstellen" closeHref={closeHref} disabled={refundable.refusal !== null} reason={refundable.refusal} />
      </DialogForm>
    </RouteDialog>
  );
}
