import { parseWithZod } from "@conform-to/zod/v4";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { createDb } from "~/db/client.server";
import * as schema from "~/db/schema";
import { certificationSchema } from "~/dialogs/certification/schema";
import { certificationMasterSchema } from "~/dialogs/certificationMaster/schema";
import { dogSchema } from "~/dialogs/dog/schema";
import { personSchema } from "~/dialogs/person/schema";
import { errorPageText, UNEXPECTED_ERROR } from "~/lib/error-text";
import { configurationSchema } from "~/routes/configuration/schema";
import { quickAddSchema } from "~/routes/quickAdd/schema";
import { postForm } from "../support/app";
import { loginCookie } from "../support/sessions";

/** What zod says on its own (English or its type jargon): none of it may reach a user. */
const NOT_FOR_USERS = /invalid|expected|received|too (big|small)|required|must|string|number|NaN|boolean|undefined|erwartet|erhalten/i;

const errorsOf = (submission: { reply: () => { error?: Record<string, string[] | null> | null } }) => submission.reply().error ?? {};

/** Values a hand-made request can send for any field. */
const HOSTILE = ["abc", "-1", "0", "1e400", "99999999999999999999", "x".repeat(5000), "31.02.2021", "on", "true", " ", "1.5", "\u0000"];

type AnySchema = z.ZodType;

function fieldsOf(formSchema: AnySchema): string[] {
  const inner = formSchema as unknown as { shape?: Record<string, unknown>; def?: { in?: { shape?: Record<string, unknown> } } };
  const shape = inner.shape ?? (formSchema as unknown as { _zod: { def: { in?: { shape?: Record<string, unknown> } } } })._zod.def.in?.shape;
  if (!shape) throw new Error("Schema ohne Felder");
  return Object.keys(shape);
}

const SCHEMAS: [string, AnySchema][] = [
  ["Person", personSchema],
  ["Hund", dogSchema],
  ["Erfolg", certificationSchema],
  ["Erfolgsart", certificationMasterSchema],
  ["Einstellungen", configurationSchema as AnySchema],
  ["Schnell hinzufügen", quickAddSchema as AnySchema],
];

describe("every message of a form is German", () => {
  it.each(SCHEMAS)("%s: every field, every hostile value", (_, formSchema) => {
    const fields = fieldsOf(formSchema);
    expect(fields.length).toBeGreaterThan(2);
    let messages = 0;
    for (const field of fields) {
      for (const value of HOSTILE) {
        const form = new FormData();
        form.set(field, value);
        const submission = parseWithZod(form, { schema: formSchema });
        if (submission.status !== "error") continue;
        for (const text of Object.values(errorsOf(submission)).flat()) {
          if (text === null) continue;
          messages += 1;
          expect(text, `${field}=${JSON.stringify(value.slice(0, 20))}`).not.toMatch(NOT_FOR_USERS);
          expect(text).toMatch(/^[A-ZÄÖÜ„]/);
        }
      }
    }
    expect(messages).toBeGreaterThan(fields.length);
  });

  it("names the problem the way a club user reads it", () => {
    const form = new FormData();
    form.set("firstName", "Erika");
    form.set("lastName", "x".repeat(101));
    form.set("memberTypeId", "abc");
    form.set("salutation", "Dr");
    form.set("email", "erika@");
    expect(errorsOf(parseWithZod(form, { schema: personSchema }))).toMatchObject({
      lastName: ["Höchstens 100 Zeichen"],
      memberTypeId: ["Mitgliedsart ist erforderlich"],
      salutation: ["Bitte Herr oder Frau wählen"],
      email: ["Bitte eine gültige E-Mail-Adresse eingeben"],
    });
    const dog = new FormData();
    dog.set("ownerId", "1");
    dog.set("commonName", "Bello");
    dog.set("gender", "1");
    dog.set("rowVersion", "zwei");
    expect(errorsOf(parseWithZod(dog, { schema: dogSchema }))).toMatchObject({ rowVersion: ["Version fehlt"] });
  });

  it("answers a hand-made post with a malformed value in German and changes nothing", async () => {
    const db = createDb(env.DB);
    const before = await db.$count(schema.people);
    const response = await postForm("/people", await loginCookie("admin"), {
      intent: "person:save",
      firstName: "Erika",
      lastName: "Neumann",
      memberTypeId: "NaN",
      hasGdpr: "vielleicht",
    });
    expect(response.status).toBe(400);
    const html = (await response.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Mitgliedsart ist erforderlich");
    expect(html).not.toMatch(/Invalid input|expected number/);
    expect(await db.$count(schema.people)).toBe(before);
  });
});

describe("the error page speaks German", () => {
  const routeError = (status: number, data: unknown, internal = true) => ({ status, statusText: "English", internal, data });

  it("replaces the framework's English texts and keeps Wuff's own", () => {
    expect(errorPageText(routeError(500, "Unexpected Server Error"))).toBe(`500 ${UNEXPECTED_ERROR}`);
    expect(errorPageText(routeError(404, 'Error: No route matches URL "/x"'))).toBe("404 Diese Seite gibt es nicht.");
    expect(errorPageText(routeError(405, "Method Not Allowed"))).toBe("405 Diese Aktion gibt es auf dieser Seite nicht.");
    expect(errorPageText(routeError(404, "Diese Person gibt es nicht (mehr)", false))).toBe("404 Diese Person gibt es nicht (mehr)");
    expect(errorPageText(routeError(500, "Unexpected Server Error", false))).toBe(`500 ${UNEXPECTED_ERROR}`);
    expect(errorPageText(new TypeError("Failed to fetch"))).toBe(UNEXPECTED_ERROR);
  });

  it("answers a post where nothing takes posts with a German page", async () => {
    const response = await postForm("/", await loginCookie("staff"), { intent: "x" });
    // What the page shows (the router's own record of the error travels in its data, unseen).
    const html = (await response.text()).replaceAll("<!-- -->", "").replace(/<script[\s\S]*?<\/script>/g, "");
    expect(response.status, html.slice(0, 200)).toBeGreaterThanOrEqual(400);
    expect(html).toContain("405 Diese Aktion gibt es auf dieser Seite nicht.");
    expect(html).not.toMatch(/Method Not Allowed|No route matches|Unexpected Server Error/);
  });
});
