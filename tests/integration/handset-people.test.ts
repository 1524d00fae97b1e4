/**
 * The handset view Personen (/peoplemobile) lists under each person exactly their own dogs that
 * are not archived: checked against the database for every card, and in the page a trainer sees.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { HANDSET_LIMIT, handsetPeople } from "~/models/handset.server";
import { fetchApp } from "../support/app";
import { loadDemoData } from "../support/seed";
import { loginCookie } from "../support/sessions";

const db = createDb(env.DB);

async function ownDogs(personId: number) {
  const rows = await env.DB.prepare("SELECT id FROM dogs WHERE owner_id = ? AND archived = 0 ORDER BY id").bind(personId).all<{ id: number }>();
  return rows.results.map((row) => row.id);
}

beforeAll(async () => {
  await loadDemoData();
});

describe("Personen for the phone", () => {
  it("every card lists exactly the person's own dogs that are not archived", async () => {
    const { people } = await handsetPeople(db, "");
    expect(people).toHaveLength(HANDSET_LIMIT);
    let withDogs = 0;
    for (const person of people) {
      const listed = person.dogs.map((dog) => dog.id).sort((a, b) => a - b);
      expect(listed, person.fullName).toEqual(await ownDogs(person.id));
      if (listed.length > 0) withDogs++;
    }
    // The demo data gives most people a dog: the check above is not vacuous.
    expect(withDogs).toBeGreaterThan(HANDSET_LIMIT / 2);
  });

  it("an owner found by name shows their dog's name on the page, and another owner's dog is not on it", async () => {
    const owner = await env.DB.prepare(
      "SELECT p.id, p.last_name AS lastName, d.common_name AS dogName FROM people p JOIN dogs d ON d.owner_id = p.id WHERE d.archived = 0 ORDER BY p.id LIMIT 1",
    ).first<{ id: number; lastName: string; dogName: string }>();
    const other = await env.DB.prepare(
      "SELECT common_name AS dogName FROM dogs WHERE owner_id <> ? AND archived = 0 AND length(common_name) > 3 ORDER BY id LIMIT 1",
    )
      .bind(owner!.id)
      .first<{ dogName: string }>();
    const html = await (await fetchApp(`/peoplemobile?q=${encodeURIComponent(owner!.lastName)}`, { cookie: await loginCookie("staff") })).text();
    expect(html).toContain(owner!.dogName);
    const { people } = await handsetPeople(db, owner!.lastName);
    const shownDogs = people.flatMap((person) => person.dogs.map((dog) => dog.name));
    if (!shownDogs.includes(other!.dogName)) expect(html).not.toContain(`>${other!.dogName}<`);
  });
});
