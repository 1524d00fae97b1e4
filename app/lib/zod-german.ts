/**
 * German messages for every zod check that has no message of its own: what a hand-made request
 * (or a browser without the form's own checks) can send must still be answered in German that a
 * club user understands. zod's own German locale speaks of types ("erwartet number, erhalten
 * NaN"); this speaks of the field. Installed once, globally, by form-fields.ts.
 */
import { z } from "zod";
import type { $ZodRawIssue } from "zod/v4/core";
import { formatNumber } from "./format";

const number = (value: number | bigint) => (typeof value === "number" ? formatNumber(value) : value.toString());

function germanError(issue: $ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined || issue.input === null || issue.input === "") return "Dieses Feld ist erforderlich";
      switch (issue.expected) {
        case "number":
        case "bigint":
          return "Bitte eine Zahl eingeben";
        case "int":
          return "Bitte eine ganze Zahl eingeben";
        case "boolean":
          return "Bitte ja oder nein wählen";
        case "date":
          return "Bitte ein gültiges Datum eingeben";
        case "string":
          return "Bitte einen Text eingeben";
        default:
          return "Ungültige Eingabe";
      }
    }
    case "invalid_value":
      return "Bitte einen der angebotenen Werte wählen";
    case "too_big":
      if (issue.origin === "string") return `Höchstens ${number(issue.maximum)} Zeichen`;
      if (issue.origin === "array" || issue.origin === "set") return `Höchstens ${number(issue.maximum)} Einträge`;
      return issue.inclusive ? `Höchstens ${number(issue.maximum)}` : `Weniger als ${number(issue.maximum)}`;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? "Dieses Feld ist erforderlich" : `Mindestens ${number(issue.minimum)} Zeichen`;
      if (issue.origin === "array" || issue.origin === "set") return `Mindestens ${number(issue.minimum)} Einträge`;
      return issue.inclusive ? `Mindestens ${number(issue.minimum)}` : `Mehr als ${number(issue.minimum)}`;
    case "invalid_format":
      return issue.format === "email" ? "Bitte eine gültige E-Mail-Adresse eingeben" : "Ungültiges Format";
    case "not_multiple_of":
      return `Bitte ein Vielfaches von ${number(issue.divisor)} eingeben`;
    case "unrecognized_keys":
      return `Unbekannte Felder: ${issue.keys.join(", ")}`;
    default:
      return "Ungültige Eingabe";
  }
}

let installed = false;

/** Makes germanError zod's default for every schema, in the browser and in the worker. */
export function installGermanZodMessages() {
  if (installed) return;
  z.config({ localeError: germanError });
  installed = true;
}
