import { z } from "zod";

const EMAIL_MISSING = "Bitte gib eine gültige E-Mail-Adresse für die Bestätigung an.";
const CONTRACT_MISSING = "Bitte gib an, welchen Vertrag du widerrufst, zum Beispiel Kurs, Hund und Tag der Buchung.";

/** The declaration: who, the address for the confirmation, and which contract (§ 356a Abs. 2 BGB). */
export const declarationSchema = z.object({
  name: z.string({ error: "Bitte gib deinen Namen an." }).trim().min(1, "Bitte gib deinen Namen an.").max(100, "Der Name ist zu lang (höchstens 100 Zeichen)."),
  email: z
    .string({ error: EMAIL_MISSING })
    .trim()
    .pipe(z.email({ error: EMAIL_MISSING }).max(200, "Die E-Mail-Adresse ist zu lang (höchstens 200 Zeichen).")),
  contract: z.string({ error: CONTRACT_MISSING }).trim().min(1, CONTRACT_MISSING).max(500, "Bitte fasse dich kürzer (höchstens 500 Zeichen)."),
});
