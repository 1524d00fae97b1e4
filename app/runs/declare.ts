/**
 * The card's half of a run's declaration (app/runs/<kind>.run.tsx; the server's half, with its
 * plan, item function and result, is <kind>.run.server.ts): what the run is called and does, the
 * button that opens its confirmation (the preview), its downloads, its undo and its own screen.
 * The kit's RunCard (app/components/run-screen.tsx) shows it wherever the run is mounted: on
 * Tasks and on its own screen. Read in the browser too: nothing here may reach the server.
 */
import type { ReactNode } from "react";
import type { JobType } from "~/lib/jobs";
import type { JobRow } from "~/models/jobs.server";

export type RunDecl = {
  type: JobType;
  /** The card's id (its heading's id: `${id}-title`). */
  id: string;
  /** The card's heading; also names its progress bar and result ('Fortschritt Mahnlauf'). */
  title: string;
  text: ReactNode;
  /** The link to the run's confirmation dialog, disabled with `busyLabel` while the run is under
   *  way. A run whose start needs a choice (a year, a mailshot) brings its own form instead. */
  start?: { dialog: string; label: string; busyLabel: string };
  /** Files of the last run (a plain download link), where `when` holds. */
  downloads?: readonly { label: string; href: (job: JobRow) => string; when?: (job: JobRow) => boolean }[];
  /** The undo dialog of the last run (whether it is still possible: the server's `undo.state`). */
  undo?: { dialog: string; label: string };
  /** The intent 'Lauf fortsetzen' posts for a stalled run: the `resume` action of the dialog that
   *  starts the run (`resumeAction` in app/jobs/start.server.ts), so the roles that may start the
   *  run may resume it, checked by the kit like every dialog action. */
  resumeIntent: `${string}:resume`;
  /** The run's own screen, linked from Tasks ('Alle Mahnungen'). */
  screen?: { to: string; label: string };
};

/** Declares a run's card (identity: for type checking in one place). */
export const defineRun = (run: RunDecl): RunDecl => run;
