// Runs inside workerd: proves that its Intl and time-zone data give the German formats too.
import { TZDate } from "@date-fns/tz";
import { format } from "date-fns";
import { de } from "date-fns/locale";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDaysToDate,
  berlinDateOf,
  berlinWallClockToInstant,
  berlinWeekdayOf,
  formatDate,
  formatDateTime,
  formatDateTimeWithSeconds,
  formatDateTimeWithWeekday,
  formatMoney,
  formatMoneyInput,
  formatMonthYear,
  formatTime,
  formatWeekday,
  isIsoDate,
  mailtoHref,
  parseGermanDate,
  parseGermanDateTime,
  parseMoney,
  telHref,
  todayInBerlin,
} from "~/lib/format";

const NBSP = "\u00a0";

describe("dates", () => {
  it("formats calendar dates as dd.MM.yyyy without shifting the day", () => {
    expect(formatDate("2026-04-30")).toBe("30.04.2026");
    expect(formatDate("2026-01-01")).toBe("01.01.2026");
    expect(formatDate(null)).toBe("");
    expect(formatDate("")).toBe("");
  });

  it("shows an instant's calendar day in Berlin", () => {
    // 23:30 UTC on 31 Dec is already New Year in Berlin.
    expect(formatDate("2025-12-31T23:30:00.000Z")).toBe("01.01.2026");
  });

  it("parses one- and two-digit day and month with a four-digit year", () => {
    expect(parseGermanDate("1.4.2026")).toEqual({ success: true, value: "2026-04-01" });
    expect(parseGermanDate("01.04.2026")).toEqual({ success: true, value: "2026-04-01" });
    expect(parseGermanDate(" 24.12.2026 ")).toEqual({ success: true, value: "2026-12-24" });
    expect(parseGermanDate("29.02.2024")).toEqual({ success: true, value: "2024-02-29" });
  });

  it("rejects impossible dates and other formats with a German message", () => {
    for (const input of ["31.04.2026", "29.02.2025", "0.1.2026", "32.01.2026", "15.13.2026", "15.00.2026"]) {
      const result = parseGermanDate(input);
      expect(result.success, input).toBe(false);
      if (!result.success) expect(result.error).toMatch(/gibt es nicht/);
    }
    for (const input of ["1.4.26", "2026-04-01", "1/4/2026", "", "01.04.20261", "ab.cd.efgh"]) {
      const result = parseGermanDate(input);
      expect(result.success, input).toBe(false);
      if (!result.success) expect(result.error).toBe("Bitte ein Datum im Format TT.MM.JJJJ eingeben");
    }
  });

  it("checks stored dates and adds days across month and year ends", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2025-02-29")).toBe(false);
    expect(addDaysToDate("2026-01-30", 30)).toBe("2026-03-01");
    expect(addDaysToDate("2026-12-20", 30)).toBe("2027-01-19");
  });

  it("knows today's date in Berlin, not in UTC", () => {
    expect(todayInBerlin(new Date("2026-06-30T22:30:00Z"))).toBe("2026-07-01");
    expect(todayInBerlin(new Date("2026-12-31T22:59:00Z"))).toBe("2026-12-31");
  });

  it("knows it from one call to the next, across midnight and the change of summer time", () => {
    // Kept for a minute of UTC: the last millisecond before Berlin's midnight, then the first after.
    const instants = [
      "2026-12-31T22:59:59.999Z",
      "2026-12-31T23:00:00.000Z",
      "2026-12-31T22:59:00.000Z",
      "2026-03-28T22:59:59.999Z", // Saturday before summer time, 23:59:59 CET
      "2026-03-28T23:00:00.000Z", // Sunday 00:00 CET
      "2026-03-29T21:59:59.999Z", // Sunday 23:59:59 CEST
      "2026-03-29T22:00:00.000Z", // Monday 00:00 CEST
      "2026-10-24T21:59:59.999Z",
      "2026-10-24T22:00:00.000Z",
      "2026-10-25T22:59:59.999Z",
      "2026-10-25T23:00:00.000Z",
    ];
    const berlin = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin", year: "numeric", month: "2-digit", day: "2-digit" });
    for (const instant of [...instants, ...instants.reverse()]) expect(todayInBerlin(new Date(instant)), instant).toBe(berlin.format(new Date(instant)));
  });
});

describe("instants in Europe/Berlin", () => {
  it("formats date-times in winter (CET) and summer time (CEST)", () => {
    expect(formatDateTime("2026-11-24T17:00:00.000Z")).toBe("24.11.2026 18:00");
    expect(formatDateTime("2026-07-01T16:00:00.000Z")).toBe("01.07.2026 18:00");
  });

  it("adds the abbreviated German weekday", () => {
    expect(formatDateTimeWithWeekday("2026-11-24T17:00:00.000Z")).toBe("24.11.2026 18:00 (Di.)");
    expect(formatDateTimeWithWeekday("2026-11-22T09:15:00.000Z")).toBe("22.11.2026 10:15 (So.)");
  });

  it("formats with seconds for the recycle bin", () => {
    expect(formatDateTimeWithSeconds("2026-11-24T17:00:05.000Z")).toBe("24.11.2026 18:00:05");
  });

  it("turns Berlin wall-clock time into UTC across the DST change", () => {
    expect(berlinWallClockToInstant(2026, 1, 15, 18, 0)).toBe("2026-01-15T17:00:00.000Z");
    expect(berlinWallClockToInstant(2026, 7, 15, 18, 0)).toBe("2026-07-15T16:00:00.000Z");
    expect(parseGermanDateTime("24.11.2026 18:00")).toEqual({ success: true, value: "2026-11-24T17:00:00.000Z" });
    expect(parseGermanDateTime("31.04.2026 18:00").success).toBe(false);
    expect(parseGermanDateTime("24.11.2026 24:00").success).toBe(false);
  });

  // The reference: date-fns patterns on a TZDate, as these were written before they read Berlin's
  // offset once per hour (format.ts). Instants from 1900 to 2200, every minute and second, and the
  // hours around each change of summer time in particular.
  const zoned = (instant: Date, pattern: string) => format(new TZDate(instant, "Europe/Berlin"), pattern, { locale: de });
  const changeHours = fc
    .tuple(
      fc.integer({ min: 1900, max: 2200 }),
      fc.constantFrom(2, 9, 3, 4, 9, 10),
      fc.integer({ min: 20, max: 31 }),
      fc.integer({ min: -2, max: 3 }),
      fc.integer({ min: 0, max: 3599 }),
    )
    .map(([year, month, day, hour, second]) => new Date(Date.UTC(year, month, day, hour, 0, second)))
    .filter((date) => !Number.isNaN(date.getTime()));
  const instants = fc.oneof(fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2200-12-31T23:59:59Z"), noInvalidDate: true }), changeHours);

  it("shows every instant as date-fns and TZDate do", () => {
    fc.assert(
      fc.property(instants, fc.boolean(), (instant, asString) => {
        const value = asString ? instant.toISOString() : instant;
        expect(formatDate(value)).toBe(zoned(instant, "dd.MM.yyyy"));
        expect(formatTime(value)).toBe(zoned(instant, "HH:mm"));
        expect(formatWeekday(value)).toBe(zoned(instant, "ccc"));
        expect(formatMonthYear(value)).toBe(zoned(instant, "LLLL yyyy"));
        expect(berlinWeekdayOf(value)).toBe(Number(zoned(instant, "i")));
        expect(berlinDateOf(value)).toBe(zoned(instant, "yyyy-MM-dd"));
        expect(formatDateTime(value)).toBe(zoned(instant, "dd.MM.yyyy HH:mm"));
        expect(formatDateTimeWithWeekday(value)).toBe(zoned(instant, "dd.MM.yyyy HH:mm (ccc)"));
        expect(formatDateTimeWithSeconds(value)).toBe(zoned(instant, "dd.MM.yyyy HH:mm:ss"));
      }),
      { numRuns: 3000 },
    );
    expect(formatDateTime("kein Datum")).toBe("");
    expect(berlinWeekdayOf("kein Datum")).toBe(0);
  });

  it("reads every wall-clock time as TZDate does, in the hours summer time skips and repeats too", () => {
    const wallClocks = fc.oneof(
      fc.tuple(
        fc.integer({ min: 1900, max: 2200 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
      ),
      fc.tuple(
        fc.integer({ min: 1900, max: 2200 }),
        fc.constantFrom(3, 4, 9, 10),
        fc.integer({ min: 20, max: 31 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 59 }),
      ),
    );
    fc.assert(
      fc.property(wallClocks, ([year, month, day, hour, minute]) => {
        const reference = new Date(new TZDate(year, month - 1, day, hour, minute, 0, "Europe/Berlin").getTime()).toISOString();
        expect(berlinWallClockToInstant(year, month, day, hour, minute)).toBe(reference);
      }),
      { numRuns: 3000 },
    );
    // The spring change skips 02:00–03:00, the autumn change repeats it.
    expect(berlinWallClockToInstant(2026, 3, 29, 2, 30)).toBe("2026-03-29T01:30:00.000Z");
    expect(berlinWallClockToInstant(2026, 10, 25, 2, 30)).toBe("2026-10-25T01:30:00.000Z");
  });
});

describe("money", () => {
  it("formats cents as German euros", () => {
    expect(formatMoney(123456)).toBe(`1.234,56${NBSP}€`);
    expect(formatMoney(5)).toBe(`0,05${NBSP}€`);
    expect(formatMoney(0)).toBe(`0,00${NBSP}€`);
    expect(formatMoney(-1250)).toBe(`-12,50${NBSP}€`);
    expect(formatMoney(null)).toBe("");
    expect(formatMoneyInput(123450)).toBe("1.234,50");
  });

  it("parses typed German amounts exactly into cents", () => {
    const cases: [string, number][] = [
      ["1.234,5", 123450],
      ["12,50 €", 1250],
      ["12,50€", 1250],
      ["12.345,67", 1234567],
      ["0,07", 7],
      ["1234", 123400],
      ["1.234", 123400],
      ["999.999,99", 99_999_999],
      ["0,1", 10],
      ["19,99", 1999],
    ];
    for (const [input, cents] of cases) {
      expect(parseMoney(input), input).toEqual({ success: true, value: cents });
    }
  });

  it("never loses a cent to floating point", () => {
    // 0.1 + 0.2 style errors: every amount from 0,00 to 9,99 parses to its exact cent value.
    for (let cents = 0; cents < 1000; cents++) {
      const text = `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")}`;
      expect(parseMoney(text)).toEqual({ success: true, value: cents });
    }
  });

  it("rejects ambiguous, malformed, negative and huge amounts with German messages", () => {
    expect(parseMoney("12.5")).toEqual({ success: false, error: "Bitte einen Betrag wie 1.234,56 eingeben" });
    expect(parseMoney("1,234")).toEqual({ success: false, error: "Bitte einen Betrag wie 1.234,56 eingeben" });
    expect(parseMoney("12.34.5")).toEqual({ success: false, error: "Bitte einen Betrag wie 1.234,56 eingeben" });
    expect(parseMoney("abc")).toEqual({ success: false, error: "Bitte einen Betrag wie 1.234,56 eingeben" });
    expect(parseMoney("")).toEqual({ success: false, error: "Bitte einen Betrag eingeben" });
    expect(parseMoney(" € ")).toEqual({ success: false, error: "Bitte einen Betrag eingeben" });
    expect(parseMoney("-5,00")).toEqual({ success: false, error: "Der Betrag darf nicht negativ sein" });
    expect(parseMoney("-5,00", { allowNegative: true })).toEqual({ success: true, value: -500 });
    expect(parseMoney("1.000.000,00")).toEqual({ success: false, error: "Der Betrag ist zu groß (höchstens 999.999,99 €)" });
    expect(parseMoney("99999999999999999999")).toEqual({ success: false, error: "Der Betrag ist zu groß (höchstens 999.999,99 €)" });
  });
});

describe("contact links", () => {
  it("dials digits and a leading + only", () => {
    expect(telHref("+49 (0) 170 123 45-67")).toBe("tel:+491701234567");
    expect(telHref("06421 / 12 34 56")).toBe("tel:06421123456");
    expect(telHref("0049 6421 1234")).toBe("tel:004964211234");
    expect(telHref(" (06421) 98765 ")).toBe("tel:0642198765");
    expect(telHref("unbekannt")).toBeNull();
    expect(telHref("")).toBeNull();
    expect(telHref(null)).toBeNull();
  });

  it("mails one address, encoded", () => {
    expect(mailtoHref(" erika.neumann@example.org ")).toBe("mailto:erika.neumann@example.org");
    expect(mailtoHref("a+b@example.org")).toBe("mailto:a%2Bb@example.org");
    expect(mailtoHref("x?cc=evil@example.org")).toBe("mailto:x%3Fcc%3Devil@example.org");
    expect(mailtoHref("keine adresse")).toBeNull();
    expect(mailtoHref("a@b@c")).toBeNull();
    expect(mailtoHref(undefined)).toBeNull();
  });
});
