/**
 * Deterministic demo data a dog club would recognise: the same reference day and size always
 * give the same rows (faker with a fixed seed, explicit ids). Used by `npm run db:seed` (demo and
 * large benchmark data) and by the integration tests, which insert it into a real D1.
 */
import { Faker, de, base } from "@faker-js/faker";
import { addDaysToDate, addMonthsToDate, berlinDateOf, berlinMidnight, berlinWallClockToInstant, formatDate } from "../../lib/format";
import { cardForAttendance, cardSaleText, cardValidUntil, type CardKind } from "../../lib/cards";
import { DEFAULT_INVOICE_TEMPLATE, DEMO_CLUB, INVOICE_TEMPLATE_NAME } from "../../lib/invoice-document";
import { ibanWithCheckDigits, mandateReference } from "../../lib/banking";
import { courseFeeText, courseTimeText } from "../../lib/labels";
import { MAIL_TEMPLATES } from "../../lib/mail";
import { DEFAULT_TAX_CASES, taxDefaultOfKind, type TaxCase } from "../../lib/tax";
import type * as schema from "../schema";
import { DEFAULT_TERMS, DEFAULT_WITHDRAWAL } from "./booking-texts";

type Row<T extends { $inferInsert: unknown }> = T["$inferInsert"];

export type SeedData = {
  memberTypes: Row<typeof schema.memberTypes>[];
  membershipStatuses: Row<typeof schema.membershipStatuses>[];
  locations: Row<typeof schema.locations>[];
  courseMasters: Row<typeof schema.courseMasters>[];
  certificationMasters: Row<typeof schema.certificationMasters>[];
  people: Row<typeof schema.people>[];
  dogs: Row<typeof schema.dogs>[];
  courses: Row<typeof schema.courses>[];
  courseMemberships: Row<typeof schema.courseMemberships>[];
  courseDates: Row<typeof schema.courseDates>[];
  attendances: Row<typeof schema.attendances>[];
  certifications: Row<typeof schema.certifications>[];
  fees: Row<typeof schema.fees>[];
  invoiceHeaders: Row<typeof schema.invoiceHeaders>[];
  invoiceRows: Row<typeof schema.invoiceRows>[];
  payments: Row<typeof schema.payments>[];
  /** Entries of the Kasse without a person (the cash payments' entries come with the payments). */
  cashBook: { date: string; kind: "EXPENSE" | "BANK_DEPOSIT"; amount: number; text: string }[];
  paymentAllocations: Row<typeof schema.paymentAllocations>[];
  /** Spenden, each with its own fee (kind OTHER, never invoiced) that its journal entry pays. */
  donations: Row<typeof schema.donations>[];
  mailshots: Row<typeof schema.mailshots>[];
  cardProducts: Row<typeof schema.cardProducts>[];
  cardProductScopes: Row<typeof schema.cardProductScopes>[];
  cards: Row<typeof schema.cards>[];
  cardFees: Row<typeof schema.cardFees>[];
  cardUses: Row<typeof schema.cardUses>[];
  templates: Row<typeof schema.templates>[];
  configuration: Row<typeof schema.configuration>[];
  legalTexts: Row<typeof schema.legalTexts>[];
  sepaMandates: Row<typeof schema.sepaMandates>[];
};

export type SeedSize = { people: number; dogs: number; courses: number; fees: number };

export const DEMO_SIZE: SeedSize = { people: 150, dogs: 180, courses: 30, fees: 0 };
/** For `npm run bench`: fees is the total wanted; the rest are filled with other open items. */
export const LARGE_SIZE: SeedSize = { people: 5_000, dogs: 6_000, courses: 300, fees: 50_000 };

const SEED_USER = "seed";

export const MEMBER_TYPE_IDS = { NONE: 1, FULL: 2, REDUCED: 3, FAMILY: 4, HONORARY: 5 } as const;
export const STATUS_IDS = { ACTIVE: 1, PASSIVE: 2, LEFT: 3, CONFIRMED: 4, WAITLIST: 5, CANCELLED: 6 } as const;

const BREEDS = [
  "Labrador Retriever",
  "Golden Retriever",
  "Deutscher Schäferhund",
  "Border Collie",
  "Australian Shepherd",
  "Mischling",
  "Mischling",
  "Mischling",
  "Dackel",
  "Jack Russell Terrier",
  "Beagle",
  "Französische Bulldogge",
  "Magyar Vizsla",
  "Berner Sennenhund",
  "Boxer",
  "Malinois",
  "Pudel",
  "Havaneser",
  "Rhodesian Ridgeback",
  "Weimaraner",
  "Shiba Inu",
  "Eurasier",
  "Hovawart",
  "Kleiner Münsterländer",
  "Cocker Spaniel",
  "Dobermann",
];
const DOG_NAMES = [
  "Bello",
  "Luna",
  "Balu",
  "Emma",
  "Rocky",
  "Nala",
  "Sammy",
  "Mila",
  "Leo",
  "Kira",
  "Charly",
  "Lotte",
  "Buddy",
  "Frieda",
  "Max",
  "Paula",
  "Oskar",
  "Ronja",
  "Finn",
  "Lilly",
  "Amy",
  "Benny",
  "Sunny",
  "Bruno",
  "Maja",
  "Janosch",
  "Ella",
  "Filou",
  "Hugo",
  "Nele",
  "Pepper",
  "Wilma",
  "Socke",
  "Anton",
  "Juna",
  "Cooper",
  "Fiete",
  "Greta",
  "Lucky",
  "Merle",
  "Emil",
  "Motte",
];
/** Begleithunde-Vorbereitung and Rally Obedience are booked at the desk only (not in the
 *  catalogue); the others online, some with what a dog must bring (issue 33). */
const COURSE_MASTERS: (Partial<Row<typeof schema.courseMasters>> & { name: string; nrOfSessions: number; maxDogs: number })[] = [
  { name: "Welpengruppe", nrOfSessions: 8, maxDogs: 8, costFull: 12_000, costReduced1: 9_000, costReduced2: 7_500, onlineBooking: true, minDogAgeWeeks: 8 },
  {
    name: "Junghundekurs",
    nrOfSessions: 10,
    maxDogs: 8,
    costFull: 15_000,
    costReduced1: 11_000,
    costReduced2: 9_000,
    onlineBooking: true,
    minDogAgeWeeks: 16,
    requiresRabies: true,
  },
  {
    name: "Grundkurs Alltag",
    nrOfSessions: 10,
    maxDogs: 10,
    costFull: 14_000,
    costReduced1: 10_000,
    costReduced2: 8_000,
    onlineBooking: true,
    requiresRabies: true,
  },
  { name: "Begleithunde-Vorbereitung", nrOfSessions: 12, maxDogs: 8, costFull: 18_000, costReduced1: 13_500, costReduced2: 11_000 },
  {
    name: "Agility Einsteiger",
    nrOfSessions: 8,
    maxDogs: 6,
    costFull: 13_000,
    costReduced1: 9_500,
    costReduced2: 8_000,
    onlineBooking: true,
    minDogAgeWeeks: 52,
    requiresRabies: true,
    requiresInsurance: true,
  },
  {
    name: "Agility Fortgeschrittene",
    nrOfSessions: 8,
    maxDogs: 6,
    costFull: 13_000,
    costReduced1: 9_500,
    costReduced2: 8_000,
    onlineBooking: true,
    minDogAgeWeeks: 52,
    requiresRabies: true,
    requiresInsurance: true,
    priorCourseMasterId: 5,
  },
  { name: "Rally Obedience", nrOfSessions: 6, maxDogs: 8, costFull: 9_000, costReduced1: 6_500, costReduced2: 5_500 },
  {
    name: "Mantrailing",
    nrOfSessions: 5,
    maxDogs: 5,
    costFull: 11_000,
    costReduced1: 8_500,
    costReduced2: 7_000,
    onlineBooking: true,
    requiresInsurance: true,
    withdrawalRight: true,
  },
  { name: "Spielgruppe", nrOfSessions: 12, maxDogs: 12, costFull: 6_000, costReduced1: 4_000, costReduced2: 3_000, onlineBooking: true, requiresRabies: true },
  {
    name: "Erste Hilfe am Hund",
    nrOfSessions: 1,
    maxDogs: 14,
    costFull: 3_500,
    costReduced1: 2_500,
    costReduced2: 2_000,
    onlineBooking: true,
    withdrawalRight: true,
  },
];
const OTHER_FEE_TEXTS = [
  "Einzelstunde",
  "Platzmiete Agility",
  "Prüfungsgebühr BH/VT",
  "Vereins-T-Shirt",
  "Seminar Hundeernährung",
  "Leinenführigkeit Einzeltraining",
  "Sommerfest Startgeld",
];

/** The demo club as SEPA creditor: the Bundesbank's sample Gläubiger-ID and a mandate text. */
const DEMO_CREDITOR = {
  creditorId: "DE98ZZZ09999999999",
  mandateText:
    "Ich ermächtige den Hundesportverein Wuff e.V., Zahlungen von meinem Konto mittels Lastschrift einzuziehen. Zugleich weise ich mein Kreditinstitut an, die vom Hundesportverein Wuff e.V. auf mein Konto gezogenen Lastschriften einzulösen. Hinweis: Ich kann innerhalb von acht Wochen, beginnend mit dem Belastungsdatum, die Erstattung des belasteten Betrages verlangen. Es gelten dabei die mit meinem Kreditinstitut vereinbarten Bedingungen.",
};
/** Bank codes (BLZ) the demo's mandate IBANs are made with. */
const DEMO_BANK_CODES = ["37040044", "10010010", "50010517", "12030000", "43060967", "70150000"];

export type GenerateOptions = {
  /** The reference day ('YYYY-MM-DD'): demo courses lie in its year and the year before. */
  today: string;
  size?: SeedSize;
};

export function generateSeedData({ today, size = DEMO_SIZE }: GenerateOptions): SeedData {
  const faker = new Faker({ locale: [de, base] });
  faker.seed(2026);
  const currentYear = Number(today.slice(0, 4));
  const lastYear = currentYear - 1;
  const seedInstant = `${lastYear}-01-02T09:00:00.000Z`;
  const audit = { createdBy: SEED_USER, createdOn: seedInstant };
  const pick = <T>(items: readonly T[]): T => faker.helpers.arrayElement(items);
  const chance = (probability: number) => faker.number.float({ min: 0, max: 1 }) < probability;
  const dateBetween = (from: string, to: string) =>
    faker.date
      .between({ from: `${from}T12:00:00Z`, to: `${to}T12:00:00Z` })
      .toISOString()
      .slice(0, 10);

  const configuration: SeedData["configuration"] = [
    {
      id: 1,
      hsvrmVereinName: "Hundesportverein Wuff e.V.",
      hsvrmKG: 7,
      hsvrmVereinNr: 1234,
      smtpTestAccount: "test@wuff.example",
      clubMembershipEnrollmentFee: 2_500,
      clubMembershipPriceFull: 6_000,
      clubMembershipPriceReduced1: 3_000,
      clubMembershipPriceReduced2: 1_500,
      lastInvoiceNumber: 0,
      // The demo talks to the local Mollie fake (npm start), so payment links work out of the box.
      mollieIntegration: true,
      ...DEMO_CLUB,
      // A gemeinnütziger Verein: its Steuernummer (on every invoice, § 14 Abs. 4 Nr. 2 UStG) and the
      // tax office's Freistellungsbescheid, so the demo issues Zuwendungsbestätigungen (§ 63 Abs. 5
      // AO: a notice at most five years old). Made up, as everything of the demo.
      taxNumber: "214/5710/0815",
      exemptionNoticeKind: "FREISTELLUNG",
      exemptionTaxOffice: "Köln-Altstadt",
      exemptionNoticeDate: `${currentYear - 1}-06-16`,
      exemptionAssessmentPeriod: String(currentYear - 2),
      exemptionPurposes: "des Sports (Hundesport)",
      ...DEMO_CREDITOR,
      ...audit,
    },
  ];
  const annualFeeByTier = {
    NONE: 0,
    FULL: configuration[0].clubMembershipPriceFull!,
    REDUCED1: configuration[0].clubMembershipPriceReduced1!,
    REDUCED2: configuration[0].clubMembershipPriceReduced2!,
  };

  const memberTypes: SeedData["memberTypes"] = [
    { id: MEMBER_TYPE_IDS.NONE, code: "NONE", name: "Kein Mitglied", coursePriceTier: "FULL", annualFeeTier: "NONE", ...audit },
    { id: MEMBER_TYPE_IDS.FULL, code: "FULL", name: "Mitglied", coursePriceTier: "REDUCED1", annualFeeTier: "FULL", ...audit },
    { id: MEMBER_TYPE_IDS.REDUCED, code: "REDUCED", name: "Mitglied ermäßigt", coursePriceTier: "REDUCED1", annualFeeTier: "REDUCED1", ...audit },
    { id: MEMBER_TYPE_IDS.FAMILY, code: "FAMILY", name: "Familienmitglied", coursePriceTier: "REDUCED2", annualFeeTier: "REDUCED2", ...audit },
    { id: MEMBER_TYPE_IDS.HONORARY, code: "HONORARY", name: "Ehrenmitglied", coursePriceTier: "REDUCED2", annualFeeTier: "NONE", ...audit },
  ];
  const tierOf = (memberTypeId: number) => memberTypes.find((type) => type.id === memberTypeId)!;

  const membershipStatuses: SeedData["membershipStatuses"] = [
    { id: STATUS_IDS.ACTIVE, code: "ACTIVE", name: "Aktiv", appliesTo: "PERSON", isFeeTrigger: false, ...audit },
    { id: STATUS_IDS.PASSIVE, code: "PASSIVE", name: "Passiv", appliesTo: "PERSON", isFeeTrigger: false, ...audit },
    { id: STATUS_IDS.LEFT, code: "LEFT", name: "Ausgetreten", appliesTo: "PERSON", isFeeTrigger: false, ...audit },
    { id: STATUS_IDS.CONFIRMED, code: "CONFIRMED", name: "Angemeldet", appliesTo: "COURSE", isFeeTrigger: true, ...audit },
    { id: STATUS_IDS.WAITLIST, code: "WAITLIST", name: "Warteliste", appliesTo: "COURSE", isFeeTrigger: false, ...audit },
    { id: STATUS_IDS.CANCELLED, code: "CANCELLED", name: "Abgemeldet", appliesTo: "COURSE", isFeeTrigger: false, ...audit },
  ];

  const locations: SeedData["locations"] = [
    { id: 1, name: "Hundeplatz Am Stadtwald", streetNumber: "Waldweg 12", zip: "35039", city: "Marburg", ...audit },
    { id: 2, name: "Reithalle Hof Meyer", streetNumber: "Feldstraße 3", zip: "35041", city: "Marburg-Wehrda", ...audit },
    { id: 3, name: "Stadtpark, Treffpunkt Parkplatz", streetNumber: "Am Park 1", zip: "35037", city: "Marburg", ...audit },
  ];

  const courseMasters: SeedData["courseMasters"] = COURSE_MASTERS.map((master, index) => ({
    id: index + 1,
    ...master,
    ...audit,
  }));

  const certificationMasters: SeedData["certificationMasters"] = [
    { id: 1, name: "Begleithundeprüfung (BH/VT)", isPersonCertification: true, isDogCertification: true, ...audit },
    { id: 2, name: "Hundeführerschein", isPersonCertification: true, isDogCertification: true, ...audit },
    { id: 3, name: "Sachkundenachweis", isPersonCertification: true, isDogCertification: false, ...audit },
    { id: 4, name: "Wesenstest", isPersonCertification: false, isDogCertification: true, ...audit },
    { id: 5, name: "Rally Obedience Beginner", isPersonCertification: true, isDogCertification: true, ...audit },
    { id: 6, name: "Agility A1", isPersonCertification: true, isDogCertification: true, ...audit },
  ];

  // People: about 60 % members, a handful of trainers and board members.
  const people: SeedData["people"] = [];
  for (let index = 0; index < size.people; index++) {
    const id = index + 1;
    const sex = chance(0.62) ? "female" : "male";
    const firstName = faker.person.firstName(sex);
    const lastName = faker.person.lastName();
    const isTrainer = index % 19 === 3;
    const isVorstand = index % 31 === 5;
    const wasMember = isTrainer || isVorstand || chance(0.62);
    const left = wasMember && !isTrainer && !isVorstand && chance(0.08);
    const memberSince = wasMember ? dateBetween(`${currentYear - 15}-01-01`, addDaysToDate(today, -30)) : null;
    const memberUntil = left ? dateBetween(memberSince!, addDaysToDate(today, -1)) : null;
    const memberTypeId = !wasMember
      ? MEMBER_TYPE_IDS.NONE
      : isVorstand && index % 2 === 0
        ? MEMBER_TYPE_IDS.HONORARY
        : pick([MEMBER_TYPE_IDS.FULL, MEMBER_TYPE_IDS.FULL, MEMBER_TYPE_IDS.FULL, MEMBER_TYPE_IDS.REDUCED, MEMBER_TYPE_IDS.FAMILY]);
    // Some birthdays fall on the reference day so the birthday list and mails have something to show.
    const dateOfBirth =
      index % 50 === 7
        ? `${currentYear - faker.number.int({ min: 20, max: 70 })}${today.slice(4)}`
        : dateBetween(`${currentYear - 80}-01-01`, `${currentYear - 14}-12-31`);
    const normalizedBirth = dateOfBirth.endsWith("-02-29") ? dateOfBirth.replace("-02-29", "-02-28") : dateOfBirth;
    people.push({
      id,
      salutation: sex === "female" ? "Frau" : "Herr",
      title: chance(0.04) ? "Dr." : null,
      firstName,
      lastName,
      streetNumber: faker.location.streetAddress(),
      zip: faker.location.zipCode("#####"),
      city: faker.location.city(),
      email: chance(0.92) ? faker.internet.email({ firstName, lastName, provider: "example.org" }).toLowerCase() : null,
      homePhone: chance(0.3) ? faker.phone.number({ style: "national" }) : null,
      mobilePhone: chance(0.8) ? `01${faker.string.numeric({ length: { min: 9, max: 10 } })}` : null,
      dateOfBirth: normalizedBirth,
      isMember: wasMember && !left,
      memberSince,
      memberUntil,
      memberTypeId: left ? MEMBER_TYPE_IDS.NONE : memberTypeId,
      membershipStatusId: !wasMember ? null : left ? STATUS_IDS.LEFT : chance(0.1) ? STATUS_IDS.PASSIVE : STATUS_IDS.ACTIVE,
      hsvrmNr: wasMember ? `HSV-${String(10_000 + id)}` : null,
      isVorstand,
      isTrainer,
      hasGdpr: wasMember ? chance(0.9) : chance(0.6),
      hasInsurance: chance(0.75),
      comments: chance(0.06) ? pick(["Zahlt bar", "Bitte nur per Mail kontaktieren", "Hilft beim Sommerfest"]) : null,
      ...audit,
    });
  }
  const trainers = people.filter((person) => person.isTrainer);

  // Dogs: every dog has an owner; about 8 % archived, some rabies vaccinations expired.
  const dogs: SeedData["dogs"] = [];
  for (let index = 0; index < size.dogs; index++) {
    // The first pass gives most people one dog; the rest go to random owners (multi-dog homes).
    const ownerId = index < size.people * 0.8 ? (index % size.people) + 1 : faker.number.int({ min: 1, max: size.people });
    const dateOfBirth = dateBetween(`${currentYear - 14}-01-01`, addDaysToDate(today, -70));
    const archived = chance(0.08);
    dogs.push({
      id: index + 1,
      ownerId,
      commonName: pick(DOG_NAMES),
      breed: pick(BREEDS),
      gender: chance(0.05) ? 0 : chance(0.5) ? 1 : 2,
      dateOfBirth,
      rabiesValidUntil: chance(0.85) ? dateBetween(addDaysToDate(today, -400), addDaysToDate(today, 1000)) : null,
      chipNr: chance(0.8) ? `276${faker.string.numeric(12)}` : null,
      zuchtBuchNr: chance(0.2) ? `ZB ${faker.string.numeric(6)}` : null,
      comments: chance(0.07) ? pick(["Leinenaggressiv, Abstand halten", "Futterallergie", "Ängstlich bei Männern"]) : null,
      archived,
      ...audit,
    });
  }
  const activeDogsByOwner = new Map<number, number[]>();
  for (const dog of dogs) {
    if (dog.archived) continue;
    activeDogsByOwner.set(dog.ownerId, [...(activeDogsByOwner.get(dog.ownerId) ?? []), dog.id!]);
  }
  const dogOwners = [...activeDogsByOwner.keys()];

  // Courses over last year and the current year; last year's are finished.
  const courses: SeedData["courses"] = [];
  const courseDates: SeedData["courseDates"] = [];
  const courseMemberships: SeedData["courseMemberships"] = [];
  const fees: SeedData["fees"] = [];
  // 'Welpengruppe 2026', then 'Welpengruppe 2026 (Gruppe 2)' for the next one of that year.
  const groupsPerName = new Map<string, number>();
  const courseName = (masterName: string, year: number) => {
    const base = `${masterName} ${year}`;
    const group = (groupsPerName.get(base) ?? 0) + 1;
    groupsPerName.set(base, group);
    return group === 1 ? base : `${base} (Gruppe ${group})`;
  };
  for (let index = 0; index < size.courses; index++) {
    const id = index + 1;
    const master = courseMasters[index % courseMasters.length];
    // Starts spread from about 18 months before the reference day to 2 months after it (kept
    // within last and this year): finished, running and planned courses side by side.
    const spreadDays = Math.round(-540 + (index * 600) / size.courses);
    const firstDay = `${lastYear}-01-0${1 + (index % 7)}`;
    const lastDay = `${currentYear}-12-${20 + (index % 7)}`;
    const shifted = addDaysToDate(today, spreadDays);
    const startDay = shifted < firstDay ? firstDay : shifted > lastDay ? lastDay : shifted;
    const [startYear, month, day] = startDay.split("-").map(Number);
    const hour = 17 + (index % 3);
    const sessions = master.nrOfSessions!;
    const lastSessionDay = addDaysToDate(startDay, 7 * (sessions - 1));
    const statusCode = lastSessionDay < today ? "FINISHED" : startDay <= today ? "RUNNING" : "PLANNED";
    const trainer = trainers[index % trainers.length];
    const cotrainer = index % 4 === 0 ? trainers[(index + 1) % trainers.length] : null;
    const locationId = (index % locations.length) + 1;
    // The text used to be drawn at random ('Mittwochs' beside a course starting on a Sunday); it
    // is written from the start now. The draw stays, so every later draw (and the demo) is as before.
    pick(["Montags", "Dienstags", "Mittwochs", "Donnerstags", "Samstags"]);
    courses.push({
      id,
      name: courseName(master.name!, startYear),
      startYear,
      webTimeInformation: courseTimeText(startDay, hour),
      trainerId: trainer?.id ?? null,
      cotrainerId: cotrainer && cotrainer.id !== trainer?.id ? cotrainer.id : null,
      startDateTime: berlinWallClockToInstant(startYear, month, day, hour, 0),
      maxDogs: master.maxDogs,
      nrOfSessions: sessions,
      costFull: master.costFull,
      costReduced1: master.costReduced1,
      costReduced2: master.costReduced2,
      statusCode,
      durationModel: master.name === "Spielgruppe" ? "ONGOING" : "FIXED",
      pricingModel: "PER_COURSE",
      locationId,
      courseMasterId: master.id,
      comments: index % 6 === 2 ? "Bitte Leckerlis und Schleppleine mitbringen" : null,
      ...audit,
    });
    // Every seventh course has one session fewer than planned (the grid shows a red warning).
    const actualSessions = index % 7 === 4 ? Math.max(1, sessions - 1) : sessions;
    for (let session = 0; session < actualSessions; session++) {
      const sessionDay = addDaysToDate(startDay, 7 * session);
      const [y, m, d] = sessionDay.split("-").map(Number);
      const start = berlinWallClockToInstant(y, m, d, hour, 0);
      courseDates.push({
        id: courseDates.length + 1,
        courseId: id,
        startDateTime: start,
        endDateTime: new Date(Date.parse(start) + 60 * 60 * 1000).toISOString(),
        locationId,
        isAllDay: false,
        comments: session === 0 ? "Erste Stunde ohne Hund (Theorie)" : null,
        ...audit,
      });
    }
    // Participants; every fifth course is over capacity.
    const wanted = Math.min(dogOwners.length, master.maxDogs! + (index % 5 === 1 ? 2 : -faker.number.int({ min: 0, max: 3 })));
    const participants = faker.helpers.arrayElements(dogOwners, Math.max(1, wanted));
    for (const personId of participants) {
      const person = people[personId - 1];
      const dogId = activeDogsByOwner.get(personId)![0];
      const tier = tierOf(person.memberTypeId).coursePriceTier;
      const price = tier === "FULL" ? master.costFull! : tier === "REDUCED1" ? master.costReduced1! : master.costReduced2!;
      const statusId = chance(0.85) ? STATUS_IDS.CONFIRMED : chance(0.5) ? STATUS_IDS.WAITLIST : STATUS_IDS.CANCELLED;
      const isPaid = statusId === STATUS_IDS.CONFIRMED && (statusCode === "FINISHED" ? chance(0.95) : chance(0.5));
      const membershipId = courseMemberships.length + 1;
      const dog = dogs[dogId - 1];
      courseMemberships.push({
        id: membershipId,
        courseId: id,
        personId,
        dogId,
        statusId,
        price,
        amount: price,
        isPaid,
        rabiesValidUntil: dog.rabiesValidUntil,
        hasGdpr: person.hasGdpr,
        hasInsurance: person.hasInsurance,
        comments: null,
        personComments: chance(0.05) ? "Kommt 10 Minuten später" : null,
        dogComments: chance(0.05) ? "Läufig in Woche 3" : null,
        ...audit,
      });
      if (statusId !== STATUS_IDS.CONFIRMED) continue;
      const feeDate = startDay < today ? startDay : today;
      fees.push({
        id: fees.length + 1,
        personId,
        date: feeDate,
        dueDate: isPaid ? null : addDaysToDate(feeDate, 14),
        text: courseFeeText(courses[courses.length - 1].name!, dog.commonName!),
        amount: price,
        openAmount: isPaid ? 0 : price,
        paymentComments: isPaid ? `bezahlt am ${feeDate.split("-").reverse().join(".")} (seed)` : null,
        sendInvoice: chance(0.4),
        isInvoiced: false,
        courseMembershipId: membershipId,
        kind: "COURSE",
        ...audit,
      });
    }
  }

  // Annual membership fees for this year; enrollment fees for members who joined this year.
  for (const person of people) {
    if (!person.isMember) continue;
    const annual = annualFeeByTier[tierOf(person.memberTypeId).annualFeeTier ?? "NONE"];
    if (annual > 0) {
      const paid = chance(0.7);
      fees.push({
        id: fees.length + 1,
        personId: person.id!,
        date: `${currentYear}-01-15`,
        dueDate: paid ? null : `${currentYear}-02-28`,
        text: `Jahresbeitrag ${currentYear}`,
        amount: annual,
        openAmount: paid ? 0 : annual,
        sendInvoice: true,
        isInvoiced: false,
        kind: "ANNUAL",
        periodYear: currentYear,
        ...audit,
      });
    }
    if (person.memberSince && person.memberSince >= `${currentYear}-01-01`) {
      fees.push({
        id: fees.length + 1,
        personId: person.id!,
        date: person.memberSince,
        dueDate: addDaysToDate(person.memberSince, 14),
        text: "Aufnahmegebühr",
        amount: configuration[0].clubMembershipEnrollmentFee!,
        openAmount: configuration[0].clubMembershipEnrollmentFee!,
        sendInvoice: true,
        isInvoiced: false,
        kind: "ENROLLMENT",
        ...audit,
      });
    }
  }

  // Karten & Abos (issue 34): what the club sells for its open group, the Spielgruppe, and the
  // cards sold. Every participant of a Spielgruppe not finished bought one a week before it began
  // (or, for one to come, in the last days): by turns a 10er-Karte, the monthly Abo, in the latest
  // group the 20er-Karte for its double lessons (2 units a date), and guests (no member) the
  // 5er-Karte. One of the last group finished has a 10er-Karte running out in 10 days (the home
  // page names it), one of the first an expired one. A card's fee is written as the sale writes it
  // ('10er-Karte Spielgruppe, gültig …'), paid in cash at the desk; an Abo has none (its periods
  // are billed apart). Before the large data's filler fees, so their total stays as wanted; made
  // without faker, so the rest of the demo stays as it was. The uses follow the attendance below.
  const spielgruppe = courseMasters.find((master) => master.name === "Spielgruppe")!;
  const openGroups = courses.filter((course) => course.durationModel === "ONGOING");
  const runningGroups = openGroups.filter((course) => course.statusCode !== "FINISHED");
  const finishedGroups = openGroups.filter((course) => course.statusCode === "FINISHED");
  const doubleLessons = runningGroups.at(-1);
  const cardTax = DEFAULT_TAX_CASES.course;
  const cardProduct = (row: SeedData["cardProducts"][number] & { id: number }) => ({
    unitsPerAttendance: 1,
    taxCase: cardTax,
    isOffered: true,
    ...row,
    ...audit,
  });
  const cardProducts = [
    cardProduct({
      id: 1,
      name: "10er-Karte Spielgruppe",
      kind: "CARD",
      units: 10,
      validMonths: 6,
      priceFull: 5_500,
      priceReduced1: 4_000,
      priceReduced2: 3_000,
    }),
    cardProduct({
      id: 2,
      name: "5er-Karte Gäste",
      kind: "CARD",
      units: 5,
      validMonths: 3,
      priceFull: 3_500,
      priceReduced1: 3_500,
      priceReduced2: 3_500,
      comments: "Zum Reinschnuppern",
    }),
    cardProduct({
      id: 3,
      name: "Abo Spielgruppe monatlich",
      kind: "SUBSCRIPTION",
      period: "MONTHLY",
      minTermMonths: 3,
      noticeMonths: 1,
      priceFull: 2_000,
      priceReduced1: 1_500,
      priceReduced2: 1_200,
    }),
    cardProduct({
      id: 4,
      name: "20er-Karte Doppelstunde",
      kind: "CARD",
      units: 20,
      unitsPerAttendance: 2,
      validMonths: 12,
      priceFull: 10_000,
      priceReduced1: 7_500,
      priceReduced2: 6_000,
      comments: "Doppelstunde: jeder Termin zählt 2 Einheiten",
    }),
  ];
  const [tenCard, guestCard, monthly, doubleCard] = cardProducts;
  // The cards for the Spielgruppe, the double lessons for the latest group alone.
  const cardProductScopes: SeedData["cardProductScopes"] = [
    ...[tenCard, guestCard, monthly].map((product) => ({ productId: product.id!, courseMasterId: spielgruppe.id!, courseId: null })),
    doubleLessons
      ? { productId: doubleCard.id!, courseMasterId: null, courseId: doubleLessons.id! }
      : { productId: doubleCard.id!, courseMasterId: spielgruppe.id!, courseId: null },
  ].map((scope, index) => ({ id: index + 1, ...scope }));
  const cards: (SeedData["cards"][number] & { id: number; kind: CardKind; unitsPerAttendance: number; validUntil: string | null })[] = [];
  const cardFees: SeedData["cardFees"] = [];
  const cardFeeIds = new Set<number>();
  const sell = (personId: number, product: (typeof cardProducts)[number], validFrom: string) => {
    const tier = tierOf(people[personId - 1].memberTypeId).coursePriceTier;
    const price = tier === "REDUCED1" ? product.priceReduced1! : tier === "REDUCED2" ? product.priceReduced2! : product.priceFull!;
    const isCard = product.kind === "CARD";
    const validUntil = isCard ? cardValidUntil(validFrom, product.validMonths!) : null;
    const card = {
      id: cards.length + 1,
      personId,
      productId: product.id!,
      kind: product.kind,
      name: product.name,
      units: product.units ?? null,
      unitsPerAttendance: product.unitsPerAttendance!,
      price,
      validFrom,
      validUntil,
      period: product.period ?? null,
      minTermMonths: product.minTermMonths ?? null,
      noticeMonths: product.noticeMonths ?? null,
      ...audit,
    };
    cards.push(card);
    if (!isCard || price === 0) return;
    const fee = {
      id: fees.length + 1,
      personId,
      date: validFrom,
      dueDate: null,
      text: cardSaleText(product.name, validFrom, validUntil),
      amount: price,
      openAmount: 0,
      paymentComments: `bar bezahlt am ${formatDate(validFrom)} (seed)`,
      sendInvoice: false,
      isInvoiced: false,
      kind: "OTHER" as const,
      ...audit,
    };
    fees.push(fee);
    cardFeeIds.add(fee.id);
    cardFees.push({ id: cardFees.length + 1, cardId: card.id, feeId: fee.id, createdOn: audit.createdOn });
  };
  const firstDayOf = (courseId: number) => berlinDateOf(courseDates.find((date) => date.courseId === courseId)!.startDateTime);
  const confirmedIn = (courseId: number) => courseMemberships.filter((m) => m.courseId === courseId && m.statusId === STATUS_IDS.CONFIRMED);
  for (const group of runningGroups) {
    const bought = addDaysToDate(firstDayOf(group.id!), -7);
    for (const [index, membership] of confirmedIn(group.id!).entries()) {
      const day = bought < today ? addDaysToDate(bought, -index) : addDaysToDate(today, -1 - index);
      const guest = people[membership.personId - 1].memberTypeId === MEMBER_TYPE_IDS.NONE;
      const product = index % 3 === 1 ? monthly : guest ? guestCard : index % 3 === 2 && group === doubleLessons ? doubleCard : tenCard;
      sell(membership.personId, product, day);
    }
  }
  const [expiring] = confirmedIn(finishedGroups.at(-1)?.id ?? 0);
  if (expiring) sell(expiring.personId, tenCard, addMonthsToDate(addDaysToDate(today, 11), -6));
  const [expired] = finishedGroups.length > 1 ? confirmedIn(finishedGroups[0].id!) : [];
  if (expired) sell(expired.personId, tenCard, addDaysToDate(firstDayOf(finishedGroups[0].id!), -7));

  // Spenden (issue 35 item 5), booked as recordDonation books them: a fee of its own (kind OTHER,
  // never invoiced) paid in full by its journal entry, and the donation naming it. Two of one donor
  // in the same year (a Sammelbestätigung), one in cash (an entry of the Kasse); none confirmed yet.
  const donors = people.filter((person) => person.isMember && !person.isVorstand).slice(0, 2);
  const donations: SeedData["donations"] = [];
  const donationFeeIds = new Set<number>();
  for (const [donor, daysBefore, amount, text] of [
    [donors[0], 40, 5_000, "für die neue Agility-Ausrüstung"],
    [donors[0], 10, 2_500, ""],
    [donors[1], 3, 2_000, "für den Übungsplatz"],
  ] as const) {
    const date = addDaysToDate(today, -daysBefore);
    const feeId = fees.length + 1;
    fees.push({
      id: feeId,
      personId: donor.id!,
      date,
      text: text ? `Spende: ${text}` : "Spende",
      amount,
      openAmount: 0,
      sendInvoice: false,
      isInvoiced: false,
      kind: "OTHER",
      ...audit,
    });
    donationFeeIds.add(feeId);
    donations.push({ id: donations.length + 1, personId: donor.id!, date, amount, feeId, text, ...audit });
  }

  // Other open items, to reach the wanted number of fees in the large benchmark data.
  while (fees.length < size.fees) {
    const personId = faker.number.int({ min: 1, max: size.people });
    const date = dateBetween(`${lastYear - 3}-01-01`, today);
    const amount = faker.number.int({ min: 5, max: 120 }) * 100 + pick([0, 50]);
    const paid = date < `${lastYear}-06-01` || chance(0.6);
    fees.push({
      id: fees.length + 1,
      personId,
      date,
      dueDate: paid ? null : addDaysToDate(date, 14),
      text: pick(OTHER_FEE_TEXTS),
      amount,
      openAmount: paid ? 0 : amount,
      sendInvoice: chance(0.5),
      isInvoiced: false,
      kind: "OTHER",
      ...audit,
    });
  }

  // A few invoices from open fees billed by invoice: their rows point to the fees. They are issued,
  // with their recipient and dates of service frozen, and one more is a draft (issue 30: no number
  // yet, its fees still the open claims).
  const invoiceHeaders: SeedData["invoiceHeaders"] = [];
  const invoiceRows: SeedData["invoiceRows"] = [];
  const billable = fees.filter((fee) => fee.sendInvoice && fee.openAmount! > 0);
  const byPerson = new Map<number, typeof billable>();
  for (const fee of billable) byPerson.set(fee.personId, [...(byPerson.get(fee.personId) ?? []), fee]);
  const personById = new Map(people.map((person) => [person.id, person]));
  let invoiceNumber = currentYear * 1000;
  /** An invoice (or, with `corrects`, a Stornorechnung or Gutschrift) of the person, as the app
   *  writes it: a draft has no number and no recipient yet; an issued one takes the next number,
   *  freezes its recipient and dates of service and settles the fees it bills. */
  const addInvoice = (
    personId: number,
    rows: { fee?: (typeof fees)[number]; text: string; amount: number; serviceFrom: string | null; serviceTo: string | null; taxCase: TaxCase }[],
    options: { date: string; dueDate: string | null; draft?: boolean; sent?: boolean; open: number; kind?: "STORNO" | "CREDIT_NOTE"; corrects?: number },
  ) => {
    const id = invoiceHeaders.length + 1;
    const { date, draft = false } = options;
    if (!draft) invoiceNumber += 1;
    const person = personById.get(personId)!;
    invoiceHeaders.push({
      id,
      personId,
      invoiceNumber: draft ? null : invoiceNumber,
      status: draft ? "DRAFT" : "ISSUED",
      kind: options.kind ?? "INVOICE",
      correctsInvoiceId: options.corrects ?? null,
      issuedOn: draft ? null : `${date}T09:00:00.000Z`,
      issuedBy: draft ? null : audit.createdBy,
      date,
      sentDate: options.sent ? date : null,
      dueDate: options.dueDate,
      amount: rows.reduce((sum, row) => sum + row.amount, 0),
      openAmount: options.open,
      paymentComments: null,
      pdfFilePath: null,
      ...(draft
        ? {}
        : {
            issuedSalutation: person.salutation ?? null,
            issuedTitle: person.title ?? null,
            issuedFirstName: person.firstName,
            issuedLastName: person.lastName,
            issuedStreetNumber: person.streetNumber ?? null,
            issuedZip: person.zip ?? null,
            issuedCity: person.city ?? null,
            issuedTaxStatus: DEMO_CLUB.taxStatus,
          }),
      ...audit,
    });
    rows.forEach((row, line) => {
      invoiceRows.push({
        id: invoiceRows.length + 1,
        invoiceId: id,
        feeId: row.fee?.id ?? null,
        lineNumber: line + 1,
        text: row.text,
        amount: row.amount,
        serviceFrom: draft ? null : row.serviceFrom,
        serviceTo: draft ? null : row.serviceTo,
        taxCase: row.taxCase,
        ...audit,
      });
      const fee = row.fee;
      if (!fee) return;
      fee.isInvoiced = true;
      if (draft) return;
      // As issuing does: the billed fee is settled by the invoice.
      fee.openAmount = 0;
      fee.dueDate = null;
      fee.paymentReference = `ReNr ${invoiceNumber}`;
    });
    return invoiceHeaders[id - 1];
  };
  /** The rows of an invoice billing these fees: their text and amount, the date of service (the
   *  membership year or the fee's day) and the tax case of Einstellungen (app/models/tax.server.ts;
   *  the demo's course types have none of their own). */
  const feeRows = (personFees: typeof fees) =>
    personFees.map((fee) => ({
      fee,
      text: fee.text!,
      amount: fee.amount!,
      serviceFrom: fee.kind === "ANNUAL" && fee.periodYear ? `${fee.periodYear}-01-01` : fee.date,
      serviceTo: fee.kind === "ANNUAL" && fee.periodYear ? `${fee.periodYear}-12-31` : fee.date,
      taxCase: DEFAULT_TAX_CASES[taxDefaultOfKind(fee.kind ?? "OTHER")],
    }));
  const issuedCount = Math.max(6, Math.floor(size.people / 25));
  // One person more than the issued invoices: the draft.
  const invoiced = [...byPerson].slice(0, issuedCount + 1);
  for (const [index, [personId, personFees]] of invoiced.entries()) {
    const id = index + 1;
    const date = addDaysToDate(today, -20 - id);
    const amount = personFees.reduce((sum, fee) => sum + fee.amount!, 0);
    const draft = id > issuedCount;
    // The newest issued invoice is not sent yet (and so open); of the others every third is paid.
    const unsent = id === issuedCount;
    const paid = id % 3 === 0 && !draft && !unsent;
    const header = addInvoice(personId, feeRows(personFees), {
      date,
      dueDate: addDaysToDate(date, 30),
      draft,
      sent: !draft && !unsent,
      open: draft || paid ? 0 : amount,
    });
    if (paid) header.paymentComments = "Überweisung eingegangen";
  }

  // The rest of the life cycle (issue 30 item 6), after those in number and date: an invoice partly
  // paid and past its due date, one cancelled by its Stornorechnung (its fees open again), and a
  // paid one with a Gutschrift for part of it (the person's credit). Their records have the shape
  // that cancelInvoice and issueCreditNote write (seed.test.ts compares them); the journal's entries
  // follow below.
  const [partlyPaidFees, cancelledFees, creditedFees] = [...byPerson].slice(invoiced.length, invoiced.length + 3);
  addInvoice(partlyPaidFees[0], feeRows(partlyPaidFees[1]), {
    date: addDaysToDate(today, -19),
    dueDate: addDaysToDate(today, -5),
    sent: true,
    open: Math.ceil(partlyPaidFees[1].reduce((sum, fee) => sum + fee.amount!, 0) / 2),
  });
  const cancelled = addInvoice(cancelledFees[0], feeRows(cancelledFees[1]), {
    date: addDaysToDate(today, -18),
    dueDate: addDaysToDate(today, 12),
    sent: true,
    open: 0,
  });
  const credited = addInvoice(creditedFees[0], feeRows(creditedFees[1]), {
    date: addDaysToDate(today, -17),
    dueDate: addDaysToDate(today, 13),
    sent: true,
    open: 0,
  });
  const cancelledRows = invoiceRows.filter((row) => row.invoiceId === cancelled.id);
  const storno = addInvoice(
    cancelled.personId,
    cancelledRows.map((row) => ({ text: row.text!, amount: -row.amount!, serviceFrom: row.serviceFrom!, serviceTo: row.serviceTo!, taxCase: row.taxCase! })),
    { date: addDaysToDate(today, -10), dueDate: null, sent: true, open: 0, kind: "STORNO", corrects: cancelled.id },
  );
  // The Storno releases the cancelled invoice's fees: they are open and billable again.
  for (const row of cancelledRows) {
    row.feeReleased = true;
    const fee = fees.find((candidate) => candidate.id === row.feeId)!;
    Object.assign(fee, { isInvoiced: false, openAmount: fee.amount, dueDate: null, paymentReference: null });
  }
  // A Gutschrift for one lesson that did not take place: part of the first row's tax case.
  const creditedRow = invoiceRows.find((row) => row.invoiceId === credited.id)!;
  const creditNote = addInvoice(
    credited.personId,
    [
      {
        text: "Gutschrift: ausgefallene Übungsstunde",
        amount: -Math.min(1500, creditedRow.amount!),
        serviceFrom: creditedRow.serviceFrom!,
        serviceTo: creditedRow.serviceTo!,
        taxCase: creditedRow.taxCase!,
      },
    ],
    { date: addDaysToDate(today, -5), dueDate: null, sent: true, open: 0, kind: "CREDIT_NOTE", corrects: credited.id },
  );
  configuration[0].lastInvoiceNumber = invoiceNumber;

  // The payment journal (issue 30): every amount paid above is an entry with its allocation. The
  // records keep their open amount here; the seed plan inserts them with what was allocated added
  // and the allocations lower it again, as in the app (app/db/seed/plan.ts). Course fees
  // marked paid were paid in cash at the course, the rest by transfer. The first paid invoice was
  // overpaid: the payer has a credit.
  const payments: SeedData["payments"] = [];
  const paymentAllocations: SeedData["paymentAllocations"] = [];
  const pay = (
    entry: { personId: number; date: string; amount: number; method: "CASH" | "TRANSFER" | "OFFSET"; text: string; entryKey?: string; sourceRef?: string },
    allocated: number,
    target: { feeId: number } | { invoiceId: number },
  ) => {
    const id = payments.length + 1;
    const source = entry.method === "CASH" ? "CASH_RECEIPT" : entry.method === "OFFSET" ? "CORRECTION" : "MANUAL";
    payments.push({ id, entryKey: entry.entryKey ?? `seed:${id}`, ...entry, sourceRef: entry.sourceRef ?? null, source, ...audit });
    if (allocated > 0) paymentAllocations.push({ id: paymentAllocations.length + 1, paymentId: id, ...target, amount: allocated, ...audit });
  };
  for (const fee of fees) {
    const paid = fee.amount! - fee.openAmount!;
    // The cards' fees after the rest of the journal (below): the entries before keep their numbers.
    if (fee.isInvoiced || paid <= 0 || cardFeeIds.has(fee.id!) || donationFeeIds.has(fee.id!)) continue;
    const day = fee.date < today ? addDaysToDate(fee.date, 3) : fee.date;
    const text = `Zahlung auf Posten „${fee.text}“ (Demo)`;
    pay({ personId: fee.personId, date: day > today ? today : day, amount: paid, method: fee.kind === "COURSE" ? "CASH" : "TRANSFER", text }, paid, {
      feeId: fee.id!,
    });
  }
  // The donations came on their day, the last one in cash.
  for (const donation of donations) {
    const method = donation.id === donations.length ? "CASH" : "TRANSFER";
    pay({ personId: donation.personId, date: donation.date, amount: donation.amount, method, text: "Spende" }, donation.amount, { feeId: donation.feeId });
  }
  let overpaid = false;
  for (const header of invoiceHeaders) {
    if (header.status !== "ISSUED" || header.kind !== "INVOICE" || header.id === cancelled.id) continue;
    const paid = header.amount! - header.openAmount!;
    if (paid <= 0) continue;
    const day = addDaysToDate(header.date, 10) > today ? today : addDaysToDate(header.date, 10);
    const extra = overpaid || header.openAmount! > 0 ? 0 : 1000;
    if (header.openAmount === 0) overpaid = true;
    const text = `Überweisung ReNr ${header.invoiceNumber} (Demo)`;
    pay({ personId: header.personId, date: day, amount: paid + extra, method: "TRANSFER", text }, paid, { invoiceId: header.id! });
  }
  // The corrections' entries 'Verrechnung', as cancelInvoice and issueCreditNote book them: the
  // Stornorechnung settles what was open on the cancelled invoice; the Gutschrift comes after the
  // invoice was paid, so nothing is open to settle and its amount is the person's credit.
  for (const [correction, corrected, key, what] of [
    [storno, cancelled, `storno:${cancelled.id}`, "Stornorechnung"],
    [creditNote, credited, `creditnote:seed-${creditNote.id}`, "Gutschrift"],
  ] as const) {
    const settles = correction.kind === "STORNO" ? corrected.amount! : 0;
    const text = `${what} ${correction.invoiceNumber} zu Rechnung ${corrected.invoiceNumber}`;
    const entry = { entryKey: key, personId: correction.personId, date: correction.date, amount: -correction.amount!, text };
    pay({ ...entry, method: "OFFSET", sourceRef: String(correction.invoiceNumber) }, settles, { invoiceId: corrected.id! });
  }

  for (const fee of fees.filter((candidate) => cardFeeIds.has(candidate.id!))) {
    pay({ personId: fee.personId, date: fee.date, amount: fee.amount!, method: "CASH", text: `Zahlung auf Posten „${fee.text}“ (Demo)` }, fee.amount!, {
      feeId: fee.id!,
    });
  }

  // Das Kassenbuch (issue 35 item 2): the cash payments above are its entries (a trigger on payments
  // writes each with its payment, app/db/cash-book.ts; the seed plan inserts them in date order).
  // On the reference day the treasurer paid supplies from the Kasse and took half the rest to the bank.
  const cashIn = payments.filter((payment) => payment.method === "CASH").reduce((sum, payment) => sum + payment.amount, 0);
  const supplies = 2380;
  const banked = Math.floor((cashIn - supplies) / 2 / 1000) * 1000;
  const cashBook: SeedData["cashBook"] =
    banked > 0
      ? [
          { date: today, kind: "EXPENSE", amount: -supplies, text: "Leckerli und Kotbeutel für den Übungsplatz (Demo)" },
          { date: today, kind: "BANK_DEPOSIT", amount: -banked, text: "Bareinzahlung auf das Vereinskonto (Demo)" },
        ]
      : [];

  // Attendance of the running courses' dates held so far (up to the end of the reference day):
  // most participants who take part came (about 4 in 5; derived from the ids, so the random data
  // above stays as it was). Finished courses have none, as if from before Wuff kept it.
  const heldUntil = berlinMidnight(addDaysToDate(today, 1));
  const runningCourses = new Set(courses.filter((course) => course.statusCode === "RUNNING").map((course) => course.id));
  const takingPart = new Map<number, typeof courseMemberships>();
  for (const membership of courseMemberships) {
    if (membership.statusId === STATUS_IDS.CONFIRMED) takingPart.set(membership.courseId, [...(takingPart.get(membership.courseId) ?? []), membership]);
  }
  const attendances: SeedData["attendances"] = [];
  for (const date of courseDates) {
    if (!runningCourses.has(date.courseId) || date.startDateTime >= heldUntil) continue;
    for (const membership of takingPart.get(date.courseId) ?? []) {
      if ((membership.id! * 7 + date.id! * 3) % 10 >= 8) continue;
      attendances.push({ id: attendances.length + 1, courseDateId: date.id!, courseMembershipId: membership.id!, present: true, ...audit });
    }
  }

  // What the ticks took from the cards, as ticking in order of the dates does (app/lib/cards.ts:
  // the Abo first, else the card that runs out first); a tick no card covers stays 'ohne Karte'.
  const cardUses: SeedData["cardUses"] = [];
  const validFor = new Map<number, Set<number>>();
  for (const scope of cardProductScopes) {
    for (const course of openGroups.filter((group) => group.id === scope.courseId || group.courseMasterId === scope.courseMasterId)) {
      validFor.set(course.id!, (validFor.get(course.id!) ?? new Set()).add(scope.productId));
    }
  }
  const balances = new Map(cards.map((card) => [card.id, card.units ?? 0]));
  const membershipById = new Map(courseMemberships.map((membership) => [membership.id, membership]));
  const dateById = new Map(courseDates.map((date) => [date.id, date]));
  const ticks = attendances
    .map((attendance) => ({ attendance, date: dateById.get(attendance.courseDateId)!, membership: membershipById.get(attendance.courseMembershipId)! }))
    .filter(({ date }) => validFor.has(date.courseId))
    .sort((a, b) => a.date.startDateTime.localeCompare(b.date.startDateTime) || a.attendance.id! - b.attendance.id!);
  for (const { attendance, date, membership } of ticks) {
    const day = berlinDateOf(date.startDateTime);
    const products = validFor.get(date.courseId)!;
    const usable = cards
      .filter((card) => card.personId === membership.personId && products.has(card.productId))
      .map((card) => ({ ...card, balance: card.kind === "CARD" ? balances.get(card.id)! : null }));
    const card = cardForAttendance(usable, day);
    if (!card) continue;
    const units = card.kind === "SUBSCRIPTION" ? 0 : card.unitsPerAttendance;
    balances.set(card.id, balances.get(card.id)! - units);
    cardUses.push({ id: cardUses.length + 1, cardId: card.id, kind: "USE", units, attendanceId: attendance.id!, usedOn: day, ...audit });
  }

  const certifications: SeedData["certifications"] = [];
  const certificationCount = Math.round(size.people * 0.4);
  for (let index = 0; index < certificationCount; index++) {
    const master = pick(certificationMasters);
    const dog = dogs[faker.number.int({ min: 0, max: dogs.length - 1 })];
    certifications.push({
      id: index + 1,
      personId: master.isPersonCertification ? dog.ownerId : null,
      dogId: master.isDogCertification ? dog.id : null,
      certificationMasterId: master.id!,
      date: dateBetween(`${currentYear - 6}-01-01`, today),
      comments: chance(0.1) ? "mit Auszeichnung" : null,
      ...audit,
    });
  }

  const mailshots: SeedData["mailshots"] = [
    {
      id: 1,
      name: "Einladung Mitgliederversammlung",
      recipientQuery: "members",
      templateName: "Einladung Mitgliederversammlung",
      subject: "Einladung zur Mitgliederversammlung",
      attachInvoice: false,
      ...audit,
    },
    {
      id: 2,
      name: "Rechnungsversand",
      recipientQuery: "openInvoices",
      templateName: MAIL_TEMPLATES.invoice,
      subject: "Deine Rechnung vom Hundesportverein Wuff e.V.",
      cc: "kasse@wuff.example",
      attachInvoice: true,
      ...audit,
    },
  ];

  // SEPA mandates for every second member (about half): valid German IBANs made from a bank code
  // and an account number with their check digits computed, so the demo passes every check.
  // Made without faker, so the rest of the demo stays as it was.
  const sepaMandates: SeedData["sepaMandates"] = people
    .filter((person) => person.isMember)
    .filter((_, index) => index % 2 === 0)
    .map((person, index) => {
      const personId = person.id!;
      return {
        id: index + 1,
        personId,
        accountHolder: `${person.firstName} ${person.lastName}`,
        iban: ibanWithCheckDigits("DE", `${DEMO_BANK_CODES[index % DEMO_BANK_CODES.length]}${String(1_000_000 + personId * 7_919).padStart(10, "0")}`),
        bic: null,
        reference: mandateReference(personId, 1),
        // Every third one was collected from already (before Wuff): its next debit is RCUR. The
        // others were signed last year and never used, but one signed long ago: it has expired
        // (36 months unused) and the Lastschriftlauf names it.
        mandateDate: index % 3 === 0 ? (person.memberSince ?? `${lastYear}-01-15`) : index === 1 ? `${lastYear - 4}-01-15` : `${lastYear}-01-15`,
        firstCollectionOn: index % 3 === 0 ? `${lastYear}-03-01` : null,
        previousUseOn: index % 3 === 0 ? `${lastYear}-03-01` : null,
        isActive: true,
        ...audit,
      };
    });

  const templates: SeedData["templates"] = [
    { name: INVOICE_TEMPLATE_NAME, kind: "INVOICE", subject: null, html: DEFAULT_INVOICE_TEMPLATE, text: null, ...audit },
  ];

  // The demo club's texts for Mein Wuff, so that its pages and 'Mitglied werden' work at once; a
  // club replaces them by new versions in Einstellungen → Texte für Mein Wuff.
  const legalTexts: SeedData["legalTexts"] = [
    {
      kind: "STATUTES",
      version: 1,
      body: `Satzung des ${DEMO_CLUB.clubName} (Beispiel)\n\n§ 1 Name und Sitz\nDer Verein führt den Namen ${DEMO_CLUB.clubName} und hat seinen Sitz in ${DEMO_CLUB.clubCity}.\n\n§ 2 Zweck\nZweck des Vereins ist die Förderung des Hundesports.\n\n§ 3 Mitgliedschaft\nÜber die Aufnahme entscheidet der Vorstand.`,
      ...audit,
    },
    {
      kind: "PRIVACY",
      version: 1,
      body: `Datenschutzhinweise (Beispiel)\n\nVerantwortlich: ${DEMO_CLUB.clubName}, ${DEMO_CLUB.clubStreet}, ${DEMO_CLUB.clubZip} ${DEMO_CLUB.clubCity}.\nWir verarbeiten deine Angaben, um deine Mitgliedschaft und deine Kurse zu verwalten (Art. 6 Abs. 1 lit. b DSGVO), und löschen sie, wenn sie dafür und für die Aufbewahrungspflichten nicht mehr nötig sind.`,
      ...audit,
    },
    {
      kind: "IMPRINT",
      version: 1,
      body: `${DEMO_CLUB.clubName}\n${DEMO_CLUB.clubStreet}\n${DEMO_CLUB.clubZip} ${DEMO_CLUB.clubCity}\nTelefon ${DEMO_CLUB.clubPhone}\nE-Mail ${DEMO_CLUB.clubEmail}`,
      ...audit,
    },
    // The terms and withdrawal notice for booking online, as migration 0058 writes them (a
    // database migrated with it keeps its own version 1).
    { kind: "TERMS", version: 1, body: DEFAULT_TERMS, ...audit },
    { kind: "WITHDRAWAL", version: 1, body: DEFAULT_WITHDRAWAL, ...audit },
  ];

  return {
    legalTexts,
    memberTypes,
    membershipStatuses,
    locations,
    courseMasters,
    certificationMasters,
    people,
    dogs,
    courses,
    courseMemberships,
    courseDates,
    attendances,
    certifications,
    fees,
    invoiceHeaders,
    invoiceRows,
    payments,
    paymentAllocations,
    donations,
    cashBook,
    mailshots,
    cardProducts,
    cardProductScopes,
    cards,
    cardFees,
    cardUses,
    templates,
    configuration,
    sepaMandates,
  };
}
