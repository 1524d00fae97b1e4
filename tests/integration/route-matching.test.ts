/**
 * React Router's route matching as patched for speed (patches/@remix-run+router+1.23.3.patch):
 * ranked branches, compiled paths and the matches of a path are kept per shape of route tree (the
 * server renders every request with a fresh copy of the same tree). What it must keep answering:
 * the same matches as before, a copy for every caller with the routes of the tree it asked about,
 * and the new answer once lazy route discovery has added routes to the tree in place.
 */
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

function appRoutes(): AgnosticRouteObject[] {
  return [
    {
      id: "root",
      path: "/",
      children: [
        { id: "home", index: true },
        {
          id: "people",
          path: "people",
          children: [{ id: "person", path: ":personId", children: [{ id: "tab", path: ":tab" }] }],
        },
        { id: "gdpr", path: "gdpr", children: [] },
        { id: "not-found", path: "*" },
      ],
    },
  ];
}

const idsOf = (matches: ReturnType<typeof matchRoutes>) => matches?.map((match) => match.route.id) ?? null;

describe("route matching with its caches", () => {
  it("matches nested, indexed, case-insensitive and unknown paths, the same on every call", () => {
    const routes = appRoutes();
    for (let call = 0; call < 2; call++) {
      const person = matchRoutes(routes, "/people/17/dogs");
      expect(idsOf(person)).toEqual(["root", "people", "person", "tab"]);
      expect(person![3].params).toEqual({ personId: "17", tab: "dogs" });
      expect(person![3].pathname).toBe("/people/17/dogs");
      expect(idsOf(matchRoutes(routes, "/PEOPLE/18/fees"))).toEqual(["root", "people", "person", "tab"]);
      expect(idsOf(matchRoutes(routes, "/"))).toEqual(["root", "home"]);
      expect(idsOf(matchRoutes(routes, "/gdpr"))).toEqual(["root", "gdpr"]);
      expect(matchRoutes(routes, "/unbekannt/pfad")![1].params).toEqual({ "*": "unbekannt/pfad" });
      expect(matchRoutes(routes, "/app/people/17/dogs", "/app")![3].params).toEqual({ personId: "17", tab: "dogs" });
    }
    expect(matchRoutes([{ id: "only", path: "/people" }], "/dogs")).toBeNull();
  });

  it("gives every caller its own matches: changing one answer changes no later one", () => {
    const routes = appRoutes();
    const first = matchRoutes(routes, "/people/17/dogs")!;
    // The matches of one answer share their params, as React Router's own do.
    expect(first[1].params).toBe(first[3].params);
    (first[3].params as Record<string, string>).personId = "99";
    first[3].pathname = "/verändert";
    const second = matchRoutes(routes, "/people/17/dogs")!;
    expect(second[3].params).toEqual({ personId: "17", tab: "dogs" });
    expect(second[3].pathname).toBe("/people/17/dogs");
    expect(second).not.toBe(first);
  });

  it("answers anew when routes are added to the tree in place (lazy route discovery)", () => {
    const routes = appRoutes();
    expect(idsOf(matchRoutes(routes, "/gdpr/auskunft"))).toEqual(["root", "not-found"]);
    routes[0].children!.find((route) => route.id === "gdpr")!.children!.push({ id: "auskunft", path: "auskunft" });
    expect(idsOf(matchRoutes(routes, "/gdpr/auskunft"))).toEqual(["root", "gdpr", "auskunft"]);
  });

  it("answers a fresh copy of a tree with that copy's routes, and a tree of another shape anew", () => {
    const first = appRoutes();
    const copy = appRoutes();
    const matchedFirst = matchRoutes(first, "/people/17/dogs")!;
    const matchedCopy = matchRoutes(copy, "/people/17/dogs")!;
    const person = (routes: AgnosticRouteObject[]) => routes[0].children![1].children![0];
    expect(matchedFirst[2].route).toBe(person(first));
    expect(matchedCopy[2].route).toBe(person(copy));
    expect(matchedCopy.map((match) => match.route)).toEqual([copy[0], copy[0].children![1], person(copy), person(copy).children![0]]);
    // The same ids, another path: another shape, matched by its own paths.
    const renamed = appRoutes();
    renamed[0].children![1].path = "personen";
    expect(matchRoutes(renamed, "/people/17/dogs")![1].route.id).toBe("not-found");
    expect(idsOf(matchRoutes(renamed, "/personen/17/dogs"))).toEqual(["root", "people", "person", "tab"]);
    // An index flag or case sensitivity changes the shape too.
    const caseSensitive = appRoutes();
    caseSensitive[0].children![1].caseSensitive = true;
    expect(idsOf(matchRoutes(caseSensitive, "/PEOPLE/18/fees"))).toEqual(["root", "not-found"]);
    expect(idsOf(matchRoutes(appRoutes(), "/PEOPLE/18/fees"))).toEqual(["root", "people", "person", "tab"]);
  });
});
