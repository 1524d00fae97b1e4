import { defineRun } from "./declare";

/** 'Abo-Beiträge' (Tasks; server half: subscription-fees.run.server.ts, with the undo's state). */
export const subscriptionFeesCard = defineRun({
  type: "SUBSCRIPTION_FEES",
  resumeIntent: "task:resume",
  id: "subscription-fees",
  title: "Abo-Beiträge",
  text: "Stellt für jedes Abo jeden begonnenen Zeitraum (Monat oder Quartal ab Abo-Beginn), der noch nicht abgerechnet ist, als offenen Posten ein; ein gekündigtes Abo nur bis zu seinem Ende, den letzten Zeitraum anteilig. Ein zweiter Lauf im selben Zeitraum fügt nichts doppelt hinzu.",
  start: { dialog: "task-subscriptionFees", label: "Abo-Beiträge einstellen …", busyLabel: "Abo-Beiträge laufen …" },
  undo: { dialog: "task-undoSubscriptions", label: "Letzten Lauf rückgängig machen …" },
});
