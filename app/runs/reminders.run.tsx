import { Link } from "@remix-run/react";
import { defineRun } from "./declare";

/** 'Mahnlauf' (ADMIN, FINANCE; server half: reminders.run.server.ts): on Tasks and on Mahnwesen (FINANCE has no Tasks). */
export const remindersCard = defineRun({
  type: "REMINDERS",
  resumeIntent: "reminderRun:resume",
  id: "reminder-run",
  title: "Mahnlauf",
  text: (
    <>
      Schreibt für jede überfällige Rechnung und jeden direkt abgerechneten offenen Posten die fällige Mahnstufe, mit Mahngebühr, wenn die Stufe eine hat, und
      verschickt je Person ein Mahnschreiben (PDF): per Mail (an jede Person mit E-Mail-Adresse: eine Mahnung braucht keine Einwilligung), sonst im Druck-PDF
      des Laufs. Jeder Posten erreicht jede Stufe nur einmal. Die Stufen stehen in den{" "}
      <Link to="/configuration" className="text-wuff-700 underline">
        Einstellungen
      </Link>
      .
    </>
  ),
  start: { dialog: "reminderRun-start", label: "Mahnlauf starten …", busyLabel: "Mahnlauf läuft …" },
  downloads: [{ label: "Druck-PDF herunterladen", href: (job) => `/reminders/print/${job.id}` }],
  screen: { to: "/reminders", label: "Alle Mahnungen" },
});
