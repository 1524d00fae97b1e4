import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { deleteOutcome, REFERENCE_GONE, saveVersioned, STILL_IN_USE } from "~/dialogs/define.server";
import { containsPattern } from "~/models/search.server";
import { fetchApp, postForm } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

beforeAll(async () => {
  await loadDemoData();
});

const person = { intent: "person:save", firstName: "Erika", lastName: "Hostil", memberTypeId: 1 };

describe("ids that name nothing", () => {
  it("refuses an unknown member type with a German message and writes nothing", async () => {
    const response = await postForm("/people", await loginCookie("admin"), { ...person, memberTypeId: 999999 });
    expect(response.status).toBe(400);
    expect(await text(response)).toContain("Diese Mitgliedsart gibt es nicht (mehr)");
    expect(await db.$count(schema.people, eq(schema.people.lastName, "Hostil"))).toBe(0);
  });

  it("refuses a membership status that does not exist or belongs to courses", async () => {
    const [courseStatus] = await db.select().from(schema.membershipStatuses).where(eq(schema.membershipStatuses.appliesTo, "COURSE")).limit(1);
    for (const membershipStatusId of [courseStatus.id, 999999]) {
      const response = await postForm("/people", await loginCookie("admin"), { ...person, membershipStatusId });
      expect(response.status).toBe(400);
      expect(await text(response)).toContain("Diesen Mitgliedsstatus gibt es für Personen nicht");
    }
    expect(await db.$count(schema.people, eq(schema.people.lastName, "Hostil"))).toBe(0);
  });

  it("refuses a dog for an unknown owner and an Erfolg of an unknown kind", async () => {
    const cookie = await loginCookie("admin");
    const dog = await postForm("/dogs", cookie, { intent: "dog:save", ownerId: 999999, commonName: "Niemandshund", gender: 1 });
    expect(dog.status).toBe(400);
    const certification = await postForm("/certifications", cookie, { intent: "certification:save", certificationMasterId: 999999 });
    expect(certification.status).toBe(400);
    expect(await db.$count(schema.dogs, eq(schema.dogs.commonName, "Niemandshund"))).toBe(0);
  });
});

describe("the dialogs' safety net for every later reference", () => {
  it("answers a write the database refuses on a foreign key with a German message, not a 500", async () => {
    const submission = {
      status: "success" as const,
      value: { id: null, rowVersion: null },
      reply: (options?: object) => ({ status: "error" as const, ...options }),
    };
    const outcome = await saveVersioned(submission, {
      insert: async () => (await db.insert(schema.dogs).values({ commonName: "Waise", ownerId: 999999 }).returning({ id: schema.dogs.id }))[0].id,
      update: async () => ({ status: "updated" }),
      present: (current) => current,
      messages: { created: "angelegt", saved: "gespeichert" },
    });
    expect(outcome).toMatchObject({ status: "invalid", result: { formErrors: [REFERENCE_GONE] } });
    expect(await db.$count(schema.dogs, eq(schema.dogs.commonName, "Waise"))).toBe(0);

    // A person others still refer to, deleted past the model's own checks.
    const [owner] = await db.select({ id: schema.dogs.ownerId }).from(schema.dogs).limit(1);
    const removal = await deleteOutcome(
      owner.id,
      async (id) => (await db.delete(schema.people).where(eq(schema.people.id, id)), { status: "deleted" }),
      "gelöscht",
    );
    expect(removal).toEqual({ status: "refused", message: STILL_IN_USE });
    expect(await db.$count(schema.people, eq(schema.people.id, owner.id))).toBe(1);
  });
});

describe("searches D1 would refuse", () => {
  it("cuts a search to what a LIKE pattern may hold, whatever the letters", () => {
    const bytes = (pattern: string | null) => new TextEncoder().encode(pattern ?? "").length;
    for (const term of ["a".repeat(60), "ä".repeat(49), "😀".repeat(20), "ß".repeat(30), "%_%\\".repeat(10)]) {
      expect(bytes(containsPattern(term))).toBeLessThanOrEqual(50);
    }
    expect(containsPattern("Müller")).toBe("%Müller%");
    expect(containsPattern("%_")).toBeNull();
    // An emoji is never cut in half.
    expect(containsPattern("😀".repeat(20))).toBe(`%${"😀".repeat(12)}%`);
  });

  it("answers searches longer than the search box with a German 400, and umlauts, emoji and wildcards with the dialog", async () => {
    const cookie = await loginCookie("admin");
    const lookups = [
      ["/dogs?dialog=dog-add", "ownerId"],
      ["/certifications?dialog=certification-add", "dogId"],
      ["/certifications?dialog=certification-add", "personId"],
    ];
    for (const [term, status] of [
      ["ä".repeat(49), 400],
      ["x".repeat(200), 400],
      ["😀".repeat(30), 400],
      ["ä".repeat(20), 200],
      ["😀".repeat(20), 200],
      ["%%%%", 200],
      ["\\", 200],
    ] as const) {
      for (const [path, field] of lookups) {
        const response = await fetchApp(`${path}&dialogSearch.${field}=${encodeURIComponent(term)}`, { cookie });
        expect(response.status, `${path} ${field} ${term.slice(0, 5)}`).toBe(status);
        if (status === 400) expect((await response.text()).replaceAll("<!-- -->", "")).toContain("Der Suchbegriff ist zu lang: höchstens 20 Zeichen.");
      }
    }
  });
});

describe("the screens issue 29 added, asked by hand", () => {
  it("answers the grids' name search and the Kursteilnehmer filters with a page, whatever the URL holds", async () => {
    const cookie = await loginCookie("admin");
    const odd = ["ä".repeat(300), "😀".repeat(50), "%_\\'\"<script>", "\u0000", "ß"];
    for (const term of odd) {
      for (const path of ["/people", "/dogs", "/coursememberships"]) {
        const response = await fetchApp(`${path}?q=${encodeURIComponent(term)}`, { cookie });
        expect([200, 400], `${path} q=${term.slice(0, 5)}`).toContain(response.status);
        const html = await text(response);
        expect(html).not.toContain("<script>'");
        if (response.status === 400) expect(html).toContain("Der Suchbegriff ist zu lang");
      }
    }
    for (const query of ["status=%00&year=abc", "status=closed&year=-1", "year=99999999999999999999", "sort=zzz&page=-3", "filter[]=x&status[]=y"]) {
      const response = await fetchApp(`/coursememberships?${query}`, { cookie });
      expect(response.status, query).toBe(200);
      expect(await text(response)).toMatch(/<h1[^>]*>Kursteilnehmer <span[^>]*>\(\d+\)<\/span>/);
    }
  });
});
