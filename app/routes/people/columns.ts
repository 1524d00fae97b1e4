import type { GridColumn } from "~/lib/grid";
import type { PersonRow } from "~/models/people.server";

/**
 * The people grid (and Mitgliederliste.xlsx). GDPR, insurance and date columns are hidden by
 * default; membership dates and GDPR exist only for ADMIN and GDPR (their values are not even
 * loaded for others).
 */
export function peopleColumns(withProtected: boolean): GridColumn<PersonRow>[] {
  const columns: GridColumn<PersonRow>[] = [
    { id: "id", header: "Id", value: (p) => p.id, type: "number", hiddenByDefault: true },
    { id: "lastName", header: "Nachname", value: (p) => p.lastName },
    { id: "firstName", header: "Vorname", value: (p) => p.firstName },
    { id: "salutation", header: "Anrede", value: (p) => p.salutation, hiddenByDefault: true },
    { id: "title", header: "Titel", value: (p) => p.title, hiddenByDefault: true },
    { id: "isMember", header: "Mitglied", value: (p) => p.isMember, type: "checkbox" },
    { id: "memberType", header: "Mitgliedsart", value: (p) => p.memberType },
    { id: "membershipStatus", header: "Status", value: (p) => p.membershipStatus },
    { id: "hsvrmNr", header: "HSVRM-Nr", value: (p) => p.hsvrmNr, hiddenByDefault: true },
    { id: "streetNumber", header: "Straße", value: (p) => p.streetNumber },
    { id: "zip", header: "PLZ", value: (p) => p.zip },
    { id: "city", header: "Ort", value: (p) => p.city },
    { id: "email", header: "E-Mail", value: (p) => p.email },
    { id: "mobilePhone", header: "Mobil", value: (p) => p.mobilePhone },
    { id: "homePhone", header: "Telefon", value: (p) => p.homePhone, hiddenByDefault: true },
    { id: "dateOfBirth", header: "Geburtstag", value: (p) => p.dateOfBirth, type: "date", hiddenByDefault: true },
    { id: "isVorstand", header: "Vorstand", value: (p) => p.isVorstand, type: "checkbox", hiddenByDefault: true },
    { id: "isTrainer", header: "Trainer", value: (p) => p.isTrainer, type: "checkbox", hiddenByDefault: true },
    { id: "hasInsurance", header: "Versichert", value: (p) => p.hasInsurance, type: "checkbox", hiddenByDefault: true },
    { id: "comments", header: "Kommentar", value: (p) => p.comments, hiddenByDefault: true },
  ];
  if (!withProtected) return columns;
  return [
    ...columns,
    { id: "memberSince", header: "Mitglied seit", value: (p) => p.memberSince, type: "date", hiddenByDefault: true },
    { id: "memberUntil", header: "Mitglied bis", value: (p) => p.memberUntil, type: "date", hiddenByDefault: true },
    { id: "hasGdpr", header: "DSGVO", value: (p) => p.hasGdpr, type: "checkbox", hiddenByDefault: true },
  ];
}
