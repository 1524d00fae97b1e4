/**
 * Lastschriftlauf (ADMIN, FINANCE): the confirmation with its preview (how many transactions and
 * fees, the sum, FRST and RCUR, the people without a mandate), then the run on the queue; and the
 * confirmations of 'An die Bank übergeben' and 'Lauf stornieren' of a finished run, and 'Wieder
 * einziehen' of a fee a returned debit stopped.
 */
import { resumeAction, startDeclaredRun } from "~/jobs/start.server";
import { formatCount, formatDate, formatMoney, todayInBerlin } from "~/lib/format";
import { SEQUENCE_LABELS } from "~/lib/banking";
import {
  cancelDirectDebitRun,
  collectAgain,
  collectAgainView,
  directDebitRunView,
  previewDirectDebits,
  submitDirectDebitRun,
  type DirectDebitRunView,
} from "~/models/direct-debits.server";
import { directDebitRun } from "~/runs/direct-debit.run.server";
import { defineDialog, postedId, type ConfirmData, type DialogOutcome } from "../define.server";

/** What a run's blocks are, in words (the confirmations list them). */
const blockLines = (view: DirectDebitRunView) =>
  view.blocks.map(
    (block) =>
      `${SEQUENCE_LABELS[block.sequenceType]}, Einzug am ${formatDate(block.collectionDate)}: ${formatCount(block.count, "Lastschrift", "Lastschriften")}, ${formatMoney(block.sum)}`,
  );

const outcomeOf = (outcome: Awaited<ReturnType<typeof submitDirectDebitRun>>): DialogOutcome => outcome;

export const dialog = defineDialog({
  area: "directdebits",
  views: {
    start: async ({ db }) => previewDirectDebits(db, todayInBerlin()),
    submit: async ({ db, id }): Promise<ConfirmData | null> => {
      const view = id ? await directDebitRunView(db, id) : null;
      if (!view) return null;
      return {
        confirm: {
          title: `Lastschriftlauf ${view.run.id} an die Bank übergeben`,
          message: "Hast du die Datei bei der Bank eingereicht? Danach kann der Lauf nicht mehr storniert werden.",
          details: blockLines(view),
          intent: "directDebit:submit",
          id: view.run.id,
          confirmLabel: "An die Bank übergeben",
        },
      };
    },
    cancel: async ({ db, id }): Promise<ConfirmData | null> => {
      const view = id ? await directDebitRunView(db, id) : null;
      if (!view) return null;
      return {
        confirm: {
          title: `Lastschriftlauf ${view.run.id} stornieren`,
          message:
            "Bist du sicher? Die Posten des Laufs werden wieder frei für den nächsten Lauf (Zahlungsreferenz und Buchungskommentar wie vorher); die Datei darf dann nicht mehr eingereicht werden.",
          details: [
            ...blockLines(view),
            ...(view.cancelRefusal
              ? [view.cancelRefusal]
              : [`${formatCount(view.run.fees, "Posten wird", "Posten werden")} wieder frei für den nächsten Lauf.`]),
          ],
          intent: "directDebit:cancel",
          id: view.run.id,
          confirmLabel: "Lauf stornieren",
        },
      };
    },
    // 'Wieder einziehen …' of a returned debit whose fee was stopped (id: the booked return).
    collectAgain: async ({ db, id }): Promise<ConfirmData | null> => {
      const view = id ? await collectAgainView(db, id) : null;
      if (!view) return null;
      return {
        confirm: {
          title: "Wieder einziehen",
          message:
            "Der nächste Lastschriftlauf zieht den Posten wieder ein (mit Vorabankündigung). Nach einer Erstattung oder einem Widerspruch nur, wenn die Person zugestimmt hat.",
          details: [`${view.name}: ${view.feeText}, offen ${formatMoney(view.openAmount)}`, `Gestoppt: ${view.stop}`],
          intent: "directDebit:collectAgain",
          id: view.entryId,
          confirmLabel: "Wieder einziehen",
          ...(view.refusal ? { refusal: view.refusal } : {}),
        },
      };
    },
  },
  actions: {
    start: (context) => startDeclaredRun(directDebitRun, context),
    collectAgain: async ({ db, user, form }) => {
      const id = postedId(form);
      return id ? outcomeOf(await collectAgain(db, id, user)) : { status: "missing" };
    },
    // 'Lauf fortsetzen' of a stalled Lastschriftlauf: whoever may start it (ADMIN, FINANCE).
    resume: resumeAction(directDebitRun),
    submit: async ({ db, user, form }) => {
      const id = postedId(form);
      return id ? outcomeOf(await submitDirectDebitRun(db, id, user)) : { status: "missing" };
    },
    cancel: async ({ db, user, form }) => {
      const id = postedId(form);
      return id ? outcomeOf(await cancelDirectDebitRun(db, id, user)) : { status: "missing" };
    },
  },
});
