import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { dialogAction } from "~/dialogs/kit.server";
import { useLoaderData } from "@remix-run/react";
import { CallButtons, Card, CardList, HandsetScreen, HandsetSearch, MoreHint, RabiesDate } from "~/components/handset";
import { SCREEN_TITLES } from "~/components/navigation";
import { formatAge, todayInBerlin } from "~/lib/format";
import { dogGenderText } from "~/lib/labels";
import { handsetDogs } from "~/models/handset.server";
import { readForUser } from "~/services/auth.server";

/** Hunde for the phone: search by dog, breed or owner; each dog with its owner (tap to call), age and rabies date. */
export async function loader(args: LoaderFunctionArgs) {
  const term = new URL(args.request.url).searchParams.get("q")?.trim() ?? "";
  const { value } = await readForUser(args, ["dogsmobile"], () => handsetDogs(args.context.db, term));
  return { term, today: todayInBerlin(), ...value };
}

/** The dialogs any page can show post here. */
export const action = (args: ActionFunctionArgs) => dialogAction(args, ["dogsmobile"], []);

export const meta: MetaFunction = () => [{ title: `${SCREEN_TITLES.dogsmobile} – Wuff` }];

export default function DogsHandset() {
  const { term, today, dogs, more } = useLoaderData<typeof loader>();
  return (
    <HandsetScreen title={SCREEN_TITLES.dogsmobile}>
      <HandsetSearch label="Hund suchen" value={term} placeholder="Hund, Rasse oder Halter" />
      <CardList label="Hunde" empty={term ? `Kein Hund gefunden für „${term}“` : "Keine Hunde"}>
        {dogs.map((dog) => {
          const age = formatAge(dog.dateOfBirth, today).ageText;
          return (
            <Card key={dog.id} label={dog.name}>
              <h2 className="text-xl font-bold">{dog.name}</h2>
              <p>{[dog.breed, dogGenderText(dog.gender), age && `Alter: ${age}`].filter(Boolean).join(" · ")}</p>
              <p>
                <RabiesDate until={dog.rabiesValidUntil} today={today} />
              </p>
              <p className="font-semibold">Halter: {dog.ownerName}</p>
              <CallButtons
                phones={[
                  { label: "Mobil", number: dog.ownerMobilePhone },
                  { label: "Telefon", number: dog.ownerHomePhone },
                ]}
              />
            </Card>
          );
        })}
      </CardList>
      <MoreHint more={more} />
    </HandsetScreen>
  );
}
