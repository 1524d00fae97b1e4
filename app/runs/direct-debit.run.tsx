import { defineRun } from "./declare";

/** 'Lastschriftlauf' (ADMIN, FINANCE; server half: direct-debit.run.server.ts): on Tasks and on Lastschriftläufe. */
export const directDebitCard = defineRun({
  type: "DIRECT_DEBIT",
  resumeIntent: "directDebit:resume",
  id: "direct-debit",
  title: "Lastschriftlauf",
  text: "Zieht alle offenen Posten ohne Rechnung von Personen mit aktivem SEPA-Mandat per Lastschrift ein: eine Lastschrift je Person und Fälligkeit, als SEPA-Datei (pain.008) zum Einreichen bei der Bank. Vorher bekommt jede Person ihre Vorabankündigung (per Mail oder als Brief). Die Posten gelten als bezahlt, sobald der Kontoauszug die Gutschrift bucht (oder, wenn eingestellt, zwei Bankarbeitstage nach dem Einzug); bis die Datei an die Bank übergeben ist, lässt sich der Lauf stornieren.",
  start: { dialog: "directDebit-start", label: "Lastschriftlauf vorbereiten …", busyLabel: "Lastschriften werden vorbereitet …" },
  screen: { to: "/directdebits", label: "Alle Lastschriftläufe" },
});
