import { Link } from "@remix-run/react";
import type { JobRow } from "~/models/jobs.server";
import { StartRunLink, TaskCard } from "./task-card";

/** 'Lastschriftlauf' (ADMIN, FINANCE): on Tasks and on the screen Lastschriftläufe. */
export function DirectDebitCard({ job, now, listLink = false }: { job: JobRow | undefined; now: string; listLink?: boolean }) {
  return (
    <TaskCard
      id="direct-debit"
      title="Lastschriftlauf"
      text="Zieht alle offenen Posten ohne Rechnung von Personen mit aktivem SEPA-Mandat per Lastschrift ein: eine Lastschrift je Person und Fälligkeit, als SEPA-Datei (pain.008) zum Einreichen bei der Bank. Die Posten gelten danach als bezahlt; bis die Datei an die Bank übergeben ist, lässt sich der Lauf stornieren."
      run={{ job, now }}
    >
      <StartRunLink job={job} dialog="directDebit-start" label="Lastschriftlauf vorbereiten …" busyLabel="Lastschriften werden vorbereitet …" />
      {listLink && (
        <Link to="/directdebits" className="text-sm text-wuff-700 underline">
          Alle Lastschriftläufe
        </Link>
      )}
    </TaskCard>
  );
}
