/**
 * 'DSGVO-Löschung…' of a person (ADMIN, GDPR): the preview of the erasure (GDPR Art. 17) that
 * lists what goes and what stays and why, confirmed by typing the person's name. One atomic
 * erasure (app/models/gdpr.server.ts); the Papierkorb keeps nothing of it. Opened from the People
 * grid's row action and from the retention overview ('Löschen…'); the view 'preview' takes the
 * person's id.
 */
import type { SubmissionResult } from "@conform-to/react";
import { formatCount, formatDate } from "~/lib/format";
import { parseId } from "~/lib/ids";
import { ALREADY_ERASED, confirmationMatches, erasePerson, erasurePlan, type ErasurePlan, type PlanTable } from "~/models/gdpr.server";
import { defineDialog } from "../define.server";

export const NAME_MISMATCH = "Der eingegebene Name stimmt nicht mit dem Namen der Person überein. Es wurde nichts gelöscht.";

export type ErasureGroup = { label: string; items: string[] };
export type ErasurePreview = {
  personId: number;
  fullName: string;
  fingerprint: string;
  erasedOn: string | null;
  erase: ErasureGroup[];
  retain: (ErasureGroup & { reason: string })[];
  summary: string;
};

/** The preview's German heading of each table a plan names (a plan names no other table). */
export const PLAN_GROUP_LABELS: Record<PlanTable, string> = {
  dogs: "Hunde",
  dog_papers: "Nachweise der Hunde",
  consents: "Einwilligungen",
  course_memberships: "Kursteilnahmen",
  attendances: "Anwesenheit",
  certifications: "Erfolge",
  sepa_mandates: "SEPA-Mandate",
  mail_log: "Mail-Protokoll",
  calendar_feeds: "Kalender-Abos",
  deleted_records: "Papierkorb",
  invoice_headers: "Rechnungen",
  fees: "Posten",
  courses: "Kurse",
  reminders: "Mahnungen",
  payments: "Zahlungsjournal",
  mollie_payments: "Online-Zahlungen",
  bank_statement_entries: "Kontoauszug-Buchungen",
  direct_debit_items: "Lastschriften",
  job_failures: "Fehlermeldungen von Massenläufen",
};

/** The preview of a plan, grouped by German headings (what goes; what stays, why and until when). */
export function presentErasure(plan: ErasurePlan): ErasurePreview {
  const groups = new Map<PlanTable, string[]>();
  for (const item of plan.erase) groups.set(item.table, [...(groups.get(item.table) ?? []), item.label]);
  // Retained records grouped by table and reason.
  const retained = new Map<string, { table: PlanTable; items: string[]; reason: string }>();
  for (const item of plan.retain) {
    const key = `${item.table}|${item.reason}`;
    const until = item.until ? ` (bis ${formatDate(item.until)})` : "";
    retained.set(key, { table: item.table, reason: item.reason, items: [...(retained.get(key)?.items ?? []), `${item.label}${until}`] });
  }
  const personLine = plan.deletePerson
    ? "Die Person selbst wird vollständig gelöscht (es gibt keine aufzubewahrenden Belege)."
    : `Die Person bleibt nur als „Gelöschte Person“ ohne Kontaktdaten, Geburtstag und Anmerkungen stehen, als Halter der aufbewahrten Belege${plan.retainedUntil ? ` bis ${formatDate(plan.retainedUntil)}` : ""}; danach löscht die tägliche Aufbewahrungsprüfung den Rest.`;
  return {
    personId: plan.person.id,
    fullName: plan.person.fullName,
    fingerprint: plan.fingerprint,
    erasedOn: plan.person.erasedOn,
    erase: [
      { label: "Stammdaten", items: ["Name, Anrede, Titel, Anschrift, E-Mail, Telefon, Geburtstag, Mitgliedsdaten, HSVRM-Nr., Anmerkungen"] },
      ...[...groups].map(([table, items]) => ({ label: PLAN_GROUP_LABELS[table], items })),
      { label: "Änderungsverlauf", items: ["der Verlauf aller gelöschten und anonymisierten Datensätze der Person"] },
    ],
    retain: [...retained.values()].map(({ table, items, reason }) => ({ label: PLAN_GROUP_LABELS[table], items, reason })),
    summary: `${personLine} ${formatCount(plan.erase.length, "Datensatz wird", "Datensätze werden")} gelöscht, ${formatCount(plan.retain.length, "bleibt", "bleiben")} aufbewahrt.`,
  };
}

const nameError = (message: string): SubmissionResult<string[]> => ({ status: "error", error: { confirmName: [message] } });

export const dialog = defineDialog({
  area: "gdpr",
  // A person erased completely leaves the People grid like a deleted one (the row is unselected).
  recordEntity: "person",
  views: {
    preview: async ({ db, id }): Promise<ErasurePreview | null> => {
      const plan = id ? await erasurePlan(db, id) : undefined;
      return plan ? presentErasure(plan) : null;
    },
  },
  actions: {
    erase: async ({ db, user, form, env }) => {
      const id = parseId(form.get("id"));
      const plan = id ? await erasurePlan(db, id) : undefined;
      if (!plan) return { status: "missing" };
      if (plan.person.erasedOn) return { status: "refused", message: ALREADY_ERASED };
      if (!confirmationMatches(plan, String(form.get("confirmName") ?? ""))) return { status: "invalid", result: nameError(NAME_MISMATCH) };
      const outcome = await erasePerson(db, plan, String(form.get("fingerprint") ?? ""), user);
      if (outcome.status !== "erased") return outcome;
      // The papers' files: their rows are gone, so nothing names them any more.
      if (plan.paperKeys.length > 0) await env.PAPERS.delete(plan.paperKeys);
      if (outcome.deleted)
        return {
          status: "deleted",
          id: plan.person.id,
          message: `${plan.person.fullName} wurde gelöscht (DSGVO): ${formatCount(outcome.erased, "Datensatz", "Datensätze")} und die Person selbst, endgültig.`,
        };
      return {
        status: "done",
        message: `${plan.person.fullName} wurde gelöscht (DSGVO): ${formatCount(outcome.erased, "Datensatz", "Datensätze")} endgültig gelöscht, ${formatCount(outcome.retained, "Beleg bleibt", "Belege bleiben")} bis zum Ende der Aufbewahrungsfrist.`,
      };
    },
  },
});
