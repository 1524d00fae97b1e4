import type { JobRow } from "~/models/jobs.server";
import { StartRunLink, TaskCard } from "./task-card";

/** 'PDFs erzeugen': the PDF of every invoice that has none yet (the confirmation says how many). */
export function PdfsCard({ job, now }: { job: JobRow | undefined; now: string }) {
  return (
    <TaskCard
      id="pdfs"
      title="PDFs erzeugen"
      text="Erzeugt für jede Rechnung, die noch kein PDF hat, das PDF aus der Vorlage „invoice“ und speichert es. Rechnungen mit PDF bleiben, wie sie sind; ein zweiter Lauf erzeugt nichts doppelt."
      run={{ job, now }}
    >
      <StartRunLink job={job} dialog="pdfRun-start" label="PDFs erzeugen …" busyLabel="PDFs werden erzeugt …" />
    </TaskCard>
  );
}
