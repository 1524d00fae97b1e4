/**
 * The home page's panels as cards: every text formatted here on the server (German dates, money
 * exact to the cent), every entry a link into its screen, so the page needs no code of its own in
 * the browser. Only the panels the model read for the user become cards.
 */
import type { HomePanel } from "~/lib/access";
import { timeRangeText } from "~/lib/calendar";
import { addDaysToDate, berlinDateOf, formatCount, formatDate, formatDateTime, formatMoney, formatWeekday } from "~/lib/format";
import { JOB_STATUS_LABELS, jobMessage, jobTitle, progressText } from "~/lib/jobs";
import { isRabiesExpired, RABIES_WARNING_DAYS } from "~/lib/rabies";
import { CARD_EXPIRY_WARNING_DAYS, type HomePanels } from "~/models/home.server";
import type { PortalChange } from "~/models/portal-changes.server";

type HomeEntry = {
  key: string;
  href: string;
  /** The link's text: what the entry is (a course, a dog, a person, a sum). */
  title: string;
  /** A second line: when, where, who. */
  detail?: string;
  /** A short remark beside the title (a date running out, 'heute'). */
  note?: string;
  /** Shown red: something to act on. */
  warn?: boolean;
};

export type HomeCard = {
  id: HomePanel;
  title: string;
  groups: { heading?: string; entries: HomeEntry[] }[];
  /** Said when the card has no entries. */
  empty: string;
  /** 'alle anzeigen': the screen with the rest, when the card shows only the first rows. */
  more: { href: string; label: string } | null;
};

const courseHref = (courseId: number) => `/courses?selectedCourseId=${courseId}`;
/** 'Mi., 25.11.2026' */
const dayText = (day: string) => `${formatWeekday(day)}, ${formatDate(day)}`;
const ALL = "alle anzeigen";

function courseDatesCard(panel: NonNullable<HomePanels["courseDates"]>, today: string): HomeCard {
  const tomorrow = addDaysToDate(today, 1);
  const groups = [today, tomorrow]
    .map((day) => ({
      heading: `${day === today ? "Heute" : "Morgen"}, ${dayText(day)}`,
      entries: panel.rows
        .filter((date) => berlinDateOf(date.startDateTime) === day)
        .map((date) => ({
          key: String(date.id),
          href: courseHref(date.courseId),
          title: date.courseName,
          detail: [timeRangeText(date), date.location].filter(Boolean).join(" · "),
        })),
    }))
    .filter((group) => group.entries.length > 0);
  return {
    id: "courseDates",
    title: "Kurstermine heute und morgen",
    groups,
    empty: "Heute und morgen keine Kurstermine",
    more: panel.more ? { href: `/scheduler?view=week&date=${today}`, label: ALL } : null,
  };
}

function overCapacityCard(panel: NonNullable<HomePanels["overCapacity"]>): HomeCard {
  return {
    id: "overCapacity",
    title: "Kurse über der Teilnehmerzahl",
    groups: [
      {
        entries: panel.rows.map((course) => ({
          key: String(course.id),
          href: courseHref(course.id),
          title: course.name,
          detail: `${formatCount(course.actualNrOfDogs, "Hund", "Hunde")} bei ${formatCount(course.maxDogs, "Platz", "Plätzen")}`,
          warn: true,
        })),
      },
    ],
    empty: "Kein laufender Kurs hat mehr Hunde als Plätze",
    more: panel.more ? { href: "/courses?status=current&year=all&sort=-actualNrOfDogs", label: ALL } : null,
  };
}

function rabiesNote(validUntil: string, today: string): string {
  if (isRabiesExpired(validUntil, today)) return `abgelaufen am ${formatDate(validUntil)}`;
  return validUntil === today ? "läuft heute ab" : `läuft ab am ${formatDate(validUntil)}`;
}

function rabiesCard(panel: NonNullable<HomePanels["rabies"]>, today: string): HomeCard {
  return {
    id: "rabies",
    title: "Tollwutimpfung läuft ab",
    groups: [
      {
        entries: panel.rows.map((dog) => ({
          key: String(dog.dogId),
          href: `/dogs/${dog.dogId}`,
          title: `${dog.dogName} (${dog.ownerName})`,
          note: rabiesNote(dog.rabiesValidUntil, today),
          detail: dog.courseNames.join(", "),
          warn: isRabiesExpired(dog.rabiesValidUntil, today),
        })),
      },
    ],
    empty: `Bei keinem Hund in einem laufenden Kurs läuft die Tollwutimpfung in den nächsten ${RABIES_WARNING_DAYS} Tagen ab`,
    more: panel.more ? { href: "/dogs?sort=rabiesValidUntil", label: ALL } : null,
  };
}

function birthdaysCard(panel: NonNullable<HomePanels["birthdays"]>, today: string): HomeCard {
  const [first, last] = [panel.days[0], panel.days.at(-1)!];
  return {
    id: "birthdays",
    title: `Geburtstage diese Woche (${formatDate(first).slice(0, 6)}–${formatDate(last)})`,
    groups: [
      {
        entries: panel.rows.map((person) => ({
          key: String(person.id),
          href: `/people/${person.id}`,
          title: `${person.firstName} ${person.lastName}`.trim(),
          note: person.next.date === today ? "heute" : undefined,
          detail: `${dayText(person.next.date)} · wird ${person.next.age}${person.next.round ? " (runder Geburtstag)" : ""}`,
        })),
      },
    ],
    empty: "Diese Woche hat kein Mitglied Geburtstag",
    more: panel.more ? { href: "/birthdaylist?period=thisMonth&who=members", label: ALL } : null,
  };
}

function feesCard(panel: NonNullable<HomePanels["fees"]>): HomeCard {
  return {
    id: "fees",
    title: "Offene Posten",
    groups: [
      {
        entries: [
          {
            key: "open",
            href: "/fees?state=open",
            title: `Offen: ${formatMoney(panel.open.openAmount)}`,
            detail: formatCount(panel.open.count, "offener Posten", "offene Posten"),
          },
          {
            key: "due",
            href: "/fees?state=due",
            title: `Fällig: ${formatMoney(panel.due.openAmount)}`,
            detail: formatCount(panel.due.count, "fälliger Posten", "fällige Posten"),
            warn: panel.due.count > 0,
          },
        ],
      },
    ],
    empty: "",
    more: null,
  };
}

function lastJobCard(panel: NonNullable<HomePanels["lastJob"]>): HomeCard {
  const { job } = panel;
  return {
    id: "lastJob",
    title: "Letzter Lauf",
    groups: job
      ? [
          {
            entries: [
              {
                key: String(job.id),
                href: "/tasks",
                title: `${jobTitle(job)}: ${job.undoneOn ? "rückgängig gemacht" : JOB_STATUS_LABELS[job.status]}`,
                note: progressText(job),
                detail: [jobMessage(job), job.startedOn ? `gestartet ${formatDateTime(job.startedOn)} von ${job.createdBy}` : ""].filter(Boolean).join(" · "),
                warn: job.status === "FAILED",
              },
            ],
          },
        ]
      : [],
    empty: "Noch keine Läufe",
    more: null,
  };
}

/** The cards in the order a club office reads them: the day first, then what needs doing, then money. */
const FAILED_REMINDERS = "/reminders?show=failed";

function failedRemindersCard(panel: NonNullable<HomePanels["failedReminders"]>): HomeCard {
  return {
    id: "failedReminders",
    title: "Mahnungen: Versand fehlgeschlagen",
    groups: [
      {
        entries: panel.rows.map((reminder) => ({
          key: String(reminder.id),
          href: FAILED_REMINDERS,
          title: reminder.personName,
          detail: `${reminder.levelTitle} vom ${formatDate(reminder.date)} · ${reminder.item}`,
          note: "erneut senden oder drucken",
          warn: true,
        })),
      },
    ],
    empty: "Keine Mahnung mit fehlgeschlagenem Versand",
    more: panel.more ? { href: FAILED_REMINDERS, label: ALL } : null,
  };
}

/** German names of what a person may change in Mein Wuff (people's columns by SQL name). */
const PORTAL_FIELD_LABELS: Record<string, string> = {
  salutation: "Anrede",
  title: "Titel",
  first_name: "Vorname",
  last_name: "Nachname",
  street_number: "Straße",
  zip: "PLZ",
  city: "Ort",
  email: "E-Mail",
  home_phone: "Telefon",
  mobile_phone: "Mobil",
};

/** What a portal change did, in a few words: 'Straße, PLZ, Ort geändert', 'Einwilligung erteilt'. */
function portalChangeText(change: PortalChange): string {
  if (change.tableName === "people") {
    const fields = change.columns.map((column) => PORTAL_FIELD_LABELS[column]).filter(Boolean);
    return fields.length > 0 ? `${fields.join(", ")} geändert` : "Daten geändert";
  }
  if (change.tableName === "consents") return change.action === "INSERT" ? "Einwilligung erteilt" : "Einwilligung widerrufen";
  if (change.tableName === "dog_papers") return "Nachweis für einen Hund hochgeladen";
  if (change.tableName === "course_memberships" && change.booking) {
    const cancelled = `Kursbuchung storniert: ${change.booking.courseName} (${change.booking.dogName})`;
    return change.bookingHasFee ? `${cancelled}, Kursgebühr prüfen (Gutschrift?)` : cancelled;
  }
  return "geändert";
}

const DOG_PAPERS = "/dogPapers";
const APPLICATIONS = "/applications";
const WITHDRAWALS = "/withdrawals";

function portalChangesCard(panel: NonNullable<HomePanels["portalChanges"]>): HomeCard {
  const waiting = [
    panel.openApplications > 0 && {
      key: "applications",
      href: APPLICATIONS,
      title: `${formatCount(panel.openApplications, "Mitgliedsantrag", "Mitgliedsanträge")} zu entscheiden`,
      note: "entscheiden",
      warn: true,
    },
    panel.openWithdrawals > 0 && {
      key: "withdrawals",
      href: WITHDRAWALS,
      title: `${formatCount(panel.openWithdrawals, "Widerruf", "Widerrufe")} ohne Anmeldung zuzuordnen`,
      note: "zuordnen",
      warn: true,
    },
    panel.openNotices > 0 && {
      key: "notices",
      href: `${WITHDRAWALS}#notices`,
      title: `${formatCount(panel.openNotices, "Kündigung", "Kündigungen")} zuzuordnen`,
      note: "zuordnen",
      warn: true,
    },
    panel.pendingPapers > 0 && {
      key: "papers",
      href: DOG_PAPERS,
      title: `${formatCount(panel.pendingPapers, "Nachweis", "Nachweise")} zu prüfen`,
      note: "prüfen",
      warn: true,
    },
  ].filter((entry) => entry !== false);
  // What waits for staff (applications, withdrawals, papers) above the last two weeks' changes.
  const waitingGroup = waiting.length > 0 ? [{ entries: waiting }] : [];
  return {
    id: "portalChanges",
    title: "Änderungen aus dem Portal",
    groups: [
      ...waitingGroup,
      {
        heading: waitingGroup.length > 0 ? "Letzte zwei Wochen" : undefined,
        entries: panel.rows.map((change) => ({
          key: String(change.id),
          href: change.personId ? `/people?selectedPersonId=${change.personId}` : "/people",
          title: change.personName ?? "Gelöschte Person",
          detail: `${portalChangeText(change)} · ${formatDateTime(change.changedOn)}`,
          // A cancelled booking with a fee: the treasurer decides about a credit.
          warn: change.bookingHasFee || undefined,
        })),
      },
    ].filter((group) => group.entries.length > 0),
    empty: "Keine Änderungen aus dem Portal in den letzten zwei Wochen",
    more: null,
  };
}

/** Karten & Abos (issue 34): attendance without a card to settle, and cards running out soon. */
function cardsCard(panel: NonNullable<HomePanels["cards"]>): HomeCard {
  return {
    id: "cards",
    title: "Karten & Abos",
    groups: [
      {
        heading: "Ohne Karte",
        entries: panel.withoutCard.rows.map((row) => ({
          key: `without-${row.attendanceId}`,
          href: `/people/${row.personId}/cards?dialog=attendanceSettlement-settle&dialogId=${row.attendanceId}`,
          title: row.personName,
          detail: `${row.courseName} am ${formatDate(row.day)}`,
          note: "ohne Karte",
          warn: true,
        })),
      },
      {
        heading: `Karten laufen ab (${CARD_EXPIRY_WARNING_DAYS} Tage)`,
        entries: panel.expiring.rows.map((card) => ({
          key: `expiring-${card.id}`,
          href: `/people/${card.personId}/cards`,
          title: `${card.personName}: ${card.name}`,
          note: `läuft ab am ${formatDate(card.validUntil)}`,
          detail: `Rest ${card.balance} von ${card.units}`,
        })),
      },
    ].filter((group) => group.entries.length > 0),
    empty: "Keine Termine ohne Karte und keine Karten, die bald ablaufen",
    // The ticks to settle come first: all of them on their own page, else all the cards.
    more: panel.withoutCard.more ? { href: "/cards/withoutCard", label: ALL } : panel.expiring.more ? { href: "/cards", label: ALL } : null,
  };
}

export function homeCards(panels: HomePanels): HomeCard[] {
  const { today } = panels;
  return [
    panels.courseDates && courseDatesCard(panels.courseDates, today),
    panels.overCapacity && overCapacityCard(panels.overCapacity),
    panels.rabies && rabiesCard(panels.rabies, today),
    panels.birthdays && birthdaysCard(panels.birthdays, today),
    panels.fees && feesCard(panels.fees),
    panels.lastJob && lastJobCard(panels.lastJob),
    panels.failedReminders && failedRemindersCard(panels.failedReminders),
    panels.portalChanges && portalChangesCard(panels.portalChanges),
    panels.cards && cardsCard(panels.cards),
  ].filter((card): card is HomeCard => Boolean(card));
}
