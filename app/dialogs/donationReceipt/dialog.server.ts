/**
 * Zuwendungsbestätigungen's dialog (ADMIN, FINANCE; issue 35 item 5): 'Sammelbestätigungen
 * ausstellen' confirms, per donor, every donation of the chosen year that no receipt names yet.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { todayInBerlin } from "~/lib/format";
import { issuedMessage, issueReceipts, receiptRefusal, yearsWithUnconfirmed } from "~/models/donations.server";
import { storeReceiptPdfs } from "~/services/donation-receipts.server";
import { defineDialog, type DialogOutcome } from "../define.server";
import { collectiveReceiptsSchema } from "./schema";

export type CollectiveReceiptsDialogData = {
  years: { value: string; label: string }[];
  values: { year: string };
  /** Why nothing can be issued now (no notice, an old one): shown, the button disabled. */
  refusal: string | null;
};

export const dialog = defineDialog({
  area: "donations",
  views: {
    add: async ({ db }): Promise<CollectiveReceiptsDialogData> => {
      const today = todayInBerlin();
      const years = await yearsWithUnconfirmed(db);
      return {
        years: years.map((entry) => ({ value: String(entry.year), label: `${entry.year} (${entry.donors} Spender/innen)` })),
        values: { year: String(years.find((entry) => entry.year < Number(today.slice(0, 4)))?.year ?? years[0]?.year ?? today.slice(0, 4)) },
        refusal: years.length === 0 ? "Es gibt keine Spenden ohne Zuwendungsbestätigung." : await receiptRefusal(db, today),
      };
    },
  },
  actions: {
    save: async ({ db, user, form, env }): Promise<DialogOutcome> => {
      const submission = parseWithZod(form, { schema: collectiveReceiptsSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      const outcome = await issueReceipts(db, { year: submission.value.year }, todayInBerlin(), user);
      if (outcome.status === "refused") return { status: "invalid", result: submission.reply({ formErrors: [outcome.message] }) };
      const stored = await storeReceiptPdfs(env, db, outcome.receipts);
      return { status: "done", message: `${issuedMessage(outcome, "COLLECTIVE")}${stored}` };
    },
  },
});
