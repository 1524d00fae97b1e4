/**
 * 'SEPA-Mandat' of a person (ADMIN and FINANCE: the area of the Kontenblatt): the active mandate to
 * edit or deactivate, or a new one (which replaces the active one), the person's earlier mandates,
 * and the delete into the Papierkorb. Opened from the People grid's row action and from the person
 * dialog; the view 'person' takes the person's id.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { groupIban, isEndedByRevocation, MANDATE_EXPIRY_WARNING_MONTHS, SEQUENCE_LABELS, sequenceTypeOf } from "~/lib/banking";
import { addDaysToDate, addMonthsToDate, formatDate, todayInBerlin } from "~/lib/format";
import { getConfiguration } from "~/models/configuration.server";
import {
  deleteMandate,
  getMandate,
  insertMandate,
  mandatePersonName,
  mandatesOfPerson,
  updateMandate,
  type MandateInput,
  type MandateRecord,
} from "~/models/sepa-mandates.server";
import { auditText, BIN_KEEPS, defineDialog, deleteOutcome, postedId, saveVersioned, type ConfirmData, type DialogOutcome } from "../define.server";
import { mandateSchema, type MandateFormValues } from "./schema";

function present(mandate: MandateRecord) {
  return {
    ...mandate,
    iban: groupIban(mandate.iban),
    mandateDate: formatDate(mandate.mandateDate),
    sequence: SEQUENCE_LABELS[sequenceTypeOf(mandate)],
    firstCollectionOn: formatDate(mandate.firstCollectionOn),
    previousUseOn: formatDate(mandate.previousUseOn),
    revokedOn: formatDate(mandate.revokedOn),
    validUntil: formatDate(mandate.validUntil),
    /** Revoked, expired, or expiring within two months: staff are warned (issue 31 item 4). */
    expiry: mandateExpiry(mandate, todayInBerlin()),
    audit: auditText(mandate),
  };
}

function mandateExpiry(mandate: MandateRecord, today: string): string | null {
  const { validUntil, revocationReason } = mandate;
  if (isEndedByRevocation(mandate))
    return revocationReason
      ? `Gesperrt ab ${formatDate(mandate.revokedOn)} nach ${revocationReason}: Für weitere Lastschriften braucht es ein neues Mandat.`
      : `Widerrufen zum ${formatDate(mandate.revokedOn)}: Ab dann wird nicht mehr eingezogen. Für weitere Lastschriften braucht es ein neues Mandat.`;
  if (validUntil < today)
    return `Abgelaufen seit ${formatDate(addDaysToDate(validUntil, 1))}: 36 Monate ohne Einziehung. Für weitere Lastschriften braucht es ein neues Mandat.`;
  if (validUntil <= addMonthsToDate(today, MANDATE_EXPIRY_WARNING_MONTHS))
    return `Läuft am ${formatDate(validUntil)} ab, wenn bis dahin nicht eingezogen wird (36 Monate ohne Einziehung).`;
  return null;
}
export type MandateFormRecord = ReturnType<typeof present>;

export type MandateDialogData = {
  personId: number;
  personName: string;
  /** The mandate the form edits (the active one), or null for a new one. */
  mandate: MandateFormRecord | null;
  /** The person's other mandates (earlier, inactive), newest first. */
  others: MandateFormRecord[];
  /** There is an active mandate, but the form is for a new one that will replace it. */
  replacing: string | null;
  activeId: number | null;
  defaults: { personId: number; accountHolder: string; mandateDate: string; isActive: boolean };
  creditorId: string | null;
};

function mandateInput(value: MandateFormValues): MandateInput {
  return {
    accountHolder: value.accountHolder,
    iban: value.iban!,
    bic: value.bic,
    mandateDate: value.mandateDate,
    previousUseOn: value.previousUseOn,
    revokedOn: value.revokedOn,
    isActive: value.isActive,
    comments: value.comments,
  };
}

export const dialog = defineDialog({
  area: "fees",
  // The IBAN in the history as in the form (grouped), and only for whom may see bank data.
  history: {
    table: "sepa_mandates",
    labels: {
      personId: "Person",
      accountHolder: "Kontoinhaber",
      iban: "IBAN",
      bic: "BIC",
      reference: "Mandatsreferenz",
      mandateDate: "Mandatsdatum",
      firstCollectionOn: "Erste Einziehung",
      previousUseOn: "Letzte Einziehung vor Wuff",
      revokedOn: "Widerrufen zum",
      revocationReason: "Gesperrt nach",
      isActive: "Aktiv",
      comments: "Kommentar",
    },
    requires: { iban: "bankData", bic: "bankData", accountHolder: "bankData" },
    formats: { iban: (value) => (typeof value === "string" ? groupIban(value) : "–") },
    record: (view, _id, data) => (view === "person" ? ((data as MandateDialogData).mandate?.id ?? null) : null),
  },
  views: {
    person: async ({ db, id, draft }): Promise<MandateDialogData | null> => {
      const [personName, mandates, configuration] = id ? await Promise.all([mandatePersonName(db, id), mandatesOfPerson(db, id), getConfiguration(db)]) : [];
      if (!id || personName === undefined || !mandates) return null;
      const active = mandates.find((mandate) => mandate.isActive) ?? null;
      // dialogDraft.new=1: a new mandate; dialogDraft.edit={id}: one of the others (to reactivate it).
      const chosen = mandates.find((mandate) => String(mandate.id) === draft.edit);
      const editing = draft.new === "1" ? null : (chosen ?? active);
      return {
        personId: id,
        personName: personName ?? "",
        mandate: editing && present(editing),
        others: mandates.filter((mandate) => mandate !== editing).map(present),
        replacing: !editing && active ? active.reference : null,
        activeId: active?.id ?? null,
        defaults: { personId: id, accountHolder: personName ?? "", mandateDate: formatDate(todayInBerlin()), isActive: true },
        creditorId: configuration?.creditorId ?? null,
      };
    },
    delete: async ({ db, id }): Promise<ConfirmData | null> => {
      const mandate = id ? await getMandate(db, id) : undefined;
      if (!mandate) return null;
      return {
        confirm: {
          title: `SEPA-Mandat ${mandate.reference} löschen`,
          message: "Bist du sicher?",
          details: [`${mandate.accountHolder}, ${groupIban(mandate.iban)}, ${mandate.isActive ? "aktiv" : "inaktiv"}`, BIN_KEEPS],
          intent: "mandate:delete",
          id: mandate.id,
          confirmLabel: "Löschen",
        },
      };
    },
  },
  actions: {
    save: async ({ db, user, form }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: mandateSchema });
      let message: string | null = null;
      let refusal: string | null = null;
      const outcome = await saveVersioned(submission, {
        check: async (value) => ((await mandatePersonName(db, value.personId)) === undefined ? { personId: ["Diese Person gibt es nicht (mehr)"] } : null),
        insert: async (value) => {
          const created = await insertMandate(db, value.personId, mandateInput(value), user);
          if (created.status === "refused") {
            refusal = created.message;
            return 0;
          }
          message = `SEPA-Mandat ${created.reference} wurde angelegt${created.replaced ? `; Mandat ${created.replaced} ist nicht mehr aktiv` : ""}`;
          return created.id;
        },
        update: async (id, rowVersion, value) => {
          const stored = await getMandate(db, id);
          // The person of a mandate never changes, whatever a hand-made post says.
          if (stored && stored.personId !== value.personId) return { status: "missing" };
          const updated = await updateMandate(db, id, rowVersion, mandateInput(value), user);
          if (updated.status === "refused") {
            refusal = updated.message;
            return { status: "updated" };
          }
          return updated;
        },
        present,
        messages: { created: "SEPA-Mandat wurde angelegt", saved: "SEPA-Mandat wurde gespeichert" },
      });
      if (refusal) return { status: "refused", message: refusal };
      if (outcome.status === "saved" && message) return { ...outcome, message };
      return outcome;
    },
    delete: ({ db, user, form }) => deleteOutcome(postedId(form), (id) => deleteMandate(db, id, user), "SEPA-Mandat wurde gelöscht"),
  },
});
