/**
 * 'Teilnahme ohne Karte erledigen' (issue 34 item 3; ADMIN and FINANCE, as the fee it may write):
 * an attendance in an open group that no card or subscription covered is settled by charging a
 * single visit, by waiving it with a reason, or (a link) by selling a card, which takes it over
 * (app/models/card-settlements.server.ts, app/models/cards.server.ts).
 */
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { Db } from "~/db/client.server";
import type { User } from "~/lib/access";
import { formatDate, formatMoneyInput } from "~/lib/format";
import { settlementMessage, settleWithoutCard, withoutCardAttendance, type Settlement } from "~/models/card-settlements.server";
import { defineDialog, refusedOn, type DialogOutcome } from "../define.server";
import { chargeSchema, waiveSchema } from "./schema";

export type AttendanceSettlementDialogData = {
  attendance: { id: number; personId: number; personName: string; courseName: string; day: string };
  charge: { id: number; amount: string };
  refusal: string | null;
};

/** Settles as posted; a refusal (settled meanwhile) shows above the form. */
async function settleAs(
  db: Db,
  user: User,
  id: number,
  settlement: Settlement,
  reply: (options?: object) => SubmissionResult<string[]>,
): Promise<DialogOutcome> {
  const outcome = await settleWithoutCard(db, id, settlement, user);
  if (outcome.status === "refused") return refusedOn(reply, undefined, outcome.message);
  return outcome.status === "settled" ? { status: "done", message: settlementMessage(settlement) } : outcome;
}

export const dialog = defineDialog({
  area: "cards",
  views: {
    settle: async ({ db, id }): Promise<AttendanceSettlementDialogData | null> => {
      const attendance = id ? await withoutCardAttendance(db, id) : undefined;
      if (!attendance) return null;
      return {
        attendance: {
          id: attendance.attendanceId,
          personId: attendance.personId,
          personName: attendance.personName,
          courseName: attendance.courseName,
          day: formatDate(attendance.day),
        },
        charge: { id: attendance.attendanceId, amount: formatMoneyInput(attendance.sessionPrice) },
        refusal: attendance.settled
          ? "Diese Teilnahme ist schon erledigt."
          : attendance.covered
            ? "Diese Teilnahme ist schon mit einer Karte verrechnet."
            : null,
      };
    },
  },
  actions: {
    charge: async ({ db, user, form }) => {
      const submission = parseWithZod(form, { schema: chargeSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      return settleAs(db, user, submission.value.id, { kind: "FEE", amount: submission.value.amount }, submission.reply);
    },
    waive: async ({ db, user, form }) => {
      const submission = parseWithZod(form, { schema: waiveSchema });
      if (submission.status !== "success") return { status: "invalid", result: submission.reply() };
      return settleAs(db, user, submission.value.id, { kind: "WAIVED", note: submission.value.note }, submission.reply);
    },
  },
});
