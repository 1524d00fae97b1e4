import { ToggleGroup } from "~/components/data-grid/data-grid";
import { withSearch } from "~/lib/grid";

/** Aktuelle / Archivierte (spec: archived false / true). */
export function DogListToggle({ list, search, pathname, param, reset }: { list: string; search: URLSearchParams; pathname: string; param: string; reset: string[] }) {
  return (
    <ToggleGroup
      label="Hunde filtern"
      options={[
        { label: "Aktuelle", value: "current" },
        { label: "Archivierte", value: "archived" },
      ].map((option) => ({
        label: option.label,
        href: `${pathname}${withSearch(search, { [param]: option.value === "current" ? null : option.value, ...Object.fromEntries(reset.map((name) => [name, null])) })}`,
        active: list === option.value,
      }))}
    />
  );
}
