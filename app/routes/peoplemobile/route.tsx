import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { dialogAction } from "~/dialogs/kit.server";
import { useLoaderData } from "@remix-run/react";
import { CallButtons, Card, CardList, HandsetScreen, HandsetSearch, MailButton, MoreHint, RabiesDate } from "~/components/handset";
import { SCREEN_TITLES } from "~/components/navigation";
import { todayInBerlin } from "~/lib/format";
import { handsetPeople } from "~/models/handset.server";
import { readForUser } from "~/services/auth.server";

/** Personen for the phone: search by name; each person with phone, mobile, e-mail and their dogs. */
export async function loader(args: LoaderFunctionArgs) {
  const term = new URL(args.request.url).searchParams.get("q")?.trim() ?? "";
  const { value } = await readForUser(args, ["peoplemobile"], () => handsetPeople(args.context.db, term));
  return { term, today: todayInBerlin(), ...value };
}

/** The dialogs any page can show post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["peoplemobile"], []);

export const meta: MetaFunction = () => [{ title: `${SCREEN_TITLES.peoplemobile} – Wuff` }];

export default function PeopleHandset() {
  const { term, today, people, more } = useLoaderData<typeof loader>();
  return (
    <HandsetScreen title={SCREEN_TITLES.peoplemobile}>
      <HandsetSearch label="Person suchen" value={term} placeholder="Name" />
      <CardList label="Personen" empty={term ? `Niemand gefunden für „${term}“` : "Keine Personen"}>
        {people.map((person) => (
          <Card key={person.id} label={person.fullName}>
            <h2 className="text-xl font-bold">
              {person.fullName}
              {person.isMember && <span className="ml-2 rounded bg-wuff-100 px-2 py-0.5 text-sm font-semibold text-wuff-800">Mitglied</span>}
            </h2>
            <CallButtons
              phones={[
                { label: "Mobil", number: person.mobilePhone },
                { label: "Telefon", number: person.homePhone },
              ]}
            />
            <MailButton email={person.email} />
            {person.dogs.length > 0 && (
              <ul aria-label={`Hunde von ${person.fullName}`} className="flex flex-col gap-1 border-t border-slate-200 pt-2">
                {person.dogs.map((dog) => (
                  <li key={dog.id}>
                    <span className="font-semibold">{dog.name}</span>
                    {dog.breed ? ` (${dog.breed})` : ""} · <RabiesDate until={dog.rabiesValidUntil} today={today} />
                  </li>
                ))}
              </ul>
            )}
          </Card>
        ))}
      </CardList>
      <MoreHint more={more} />
    </HandsetScreen>
  );
}
