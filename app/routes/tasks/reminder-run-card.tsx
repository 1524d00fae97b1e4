import { Link } from "@remix-run/react";
import { isActive } from "~/lib/jobs";
import type { JobRow } from "~/models/jobs.server";
import { StartRunLink, TaskCard } from "./task-card";

/** 'Mahnlauf' (ADMIN, FINANCE): on Tasks and on the screen Mahnwesen (FINANCE has no Tasks). */
export function ReminderRunCard({ job, now, listLink = false }: { job: JobRow | undefined; now: string; listLink?: boolean }) {
  return (
    <TaskCard
      id="reminder-run"
      title="Mahnlauf"
      text={
        <>
          Schreibt für jede überfällige Rechnung und jeden direkt abgerechneten offenen Posten die fällige Mahnstufe, mit Mahngebühr, wenn die Stufe eine hat,
          und verschickt je Person ein Mahnschreiben (PDF): per Mail (mit E-Mail-Adresse und Einwilligung), sonst im Druck-PDF des Laufs. Jeder Posten erreicht
          jede Stufe nur einmal. Die Stufen stehen in den{" "}
          <Link to="/configuration" className="text-wuff-700 underline">
            Einstellungen
          </Link>
          .
        </>
      }
      run={{ job, now }}
    >
      <StartRunLink job={job} dialog="reminderRun-start" label="Mahnlauf starten …" busyLabel="Mahnlauf läuft …" />
      {job && !isActive(job) && job.type === "REMINDERS" && (
        <a href={`/reminders/print/${job.id}`} className="text-wuff-700 underline" download>
          Druck-PDF herunterladen
        </a>
      )}
      {listLink && (
        <Link to="/reminders" className="text-sm text-wuff-700 underline">
          Alle Mahnungen
        </Link>
      )}
    </TaskCard>
  );
}
