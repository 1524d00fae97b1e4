/**
 * The two reminders of a 10er-Karte (issue 34 item 4), mailed by the daily cron, each at most once
 * per card: when one attendance is left on it ('Karte: letzte Einheit'), and 14 days before it
 * expires with units left ('Karte läuft ab'). They are transactional (about the customer's own
 * contract), so they need no consent to advertising, only an address. A card is claimed for its
 * mail before sending (the column set only while empty); a mail the server refuses frees the claim
 * again, so the next day tries once more. Each mail is in the mail log of the person.
 */
import type { Db } from "~/db/client.server";
import { addDaysToDate, formatCount, formatDate, todayInBerlin } from "~/lib/format";
import type { Actor } from "~/models/audit.server";
import { cardReminderCandidates, markCardReminder, type CardReminderKind } from "~/models/cards.server";
import { CARD_EXPIRY_WARNING_DAYS } from "~/models/home.server";
import { claimMail, getMailTemplate, personForMail } from "~/models/mails.server";
import { composeMail, mailSettings, sendClaimed } from "./mails.server";
import { openTransport, type MailTransport } from "~/services/mail.server";

const TEMPLATES: Record<CardReminderKind, string> = { LOW_BALANCE: "Karte: letzte Einheit", EXPIRY: "Karte läuft ab" };

export type CardReminderOutcome = { sent: number; failed: number };

export async function sendCardReminders(env: Env, db: Db, actor: Actor, now = new Date()): Promise<CardReminderOutcome> {
  const today = todayInBerlin(now);
  const due = await cardReminderCandidates(db, today, addDaysToDate(today, CARD_EXPIRY_WARNING_DAYS));
  if (due.length === 0) return { sent: 0, failed: 0 };
  // The two templates once per run, not per card.
  const [settings, low, expiry] = await Promise.all([mailSettings(env, db), getMailTemplate(db, TEMPLATES.LOW_BALANCE), getMailTemplate(db, TEMPLATES.EXPIRY)]);
  const templates: Record<CardReminderKind, typeof low> = { LOW_BALANCE: low, EXPIRY: expiry };
  const connection: { transport?: MailTransport } = {};
  const outcome = { sent: 0, failed: 0 };
  try {
    for (const card of due) {
      const [template, person] = [templates[card.kind], await personForMail(db, card.personId)];
      if (!template || !person?.email) continue;
      const extra = { card: card.name, unitsLeft: formatCount(card.balance, "Einheit", "Einheiten"), validUntil: formatDate(card.validUntil) };
      const { rendered, route } = composeMail(env, settings, template, { person, now, extra });
      if (route.status !== "ok") continue;
      if (!(await markCardReminder(db, card.id, card.kind, now.toISOString()))) continue;
      const logId = await claimMail(
        db,
        {
          kind: "SINGLE",
          recipient: route.to,
          intendedRecipient: person.email,
          cc: null,
          intendedCc: null,
          subject: rendered.subject,
          attachments: [],
          sentBy: actor.name,
          personId: person.id,
        },
        now,
      );
      try {
        await sendClaimed(db, async () => (connection.transport ??= await openTransport(env)), logId, {
          to: route.to,
          cc: null,
          intendedTo: person.email,
          ...rendered,
          attachments: [],
        });
        outcome.sent++;
      } catch {
        // Refused: nothing went out (the log says why); tomorrow's run tries again.
        await markCardReminder(db, card.id, card.kind, null);
        outcome.failed++;
      }
    }
  } finally {
    await connection.transport?.close();
  }
  return outcome;
}
