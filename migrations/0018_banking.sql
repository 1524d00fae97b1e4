CREATE TABLE `sepa_mandates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`person_id` integer NOT NULL,
	`account_holder` text NOT NULL,
	`iban` text NOT NULL,
	`bic` text,
	`reference` text NOT NULL,
	`mandate_date` text NOT NULL,
	`first_collection_on` text,
	`is_active` integer DEFAULT true NOT NULL,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "sepa_mandates_mandate_date_is_date" CHECK(mandate_date IS NULL OR date(mandate_date) IS mandate_date),
	CONSTRAINT "sepa_mandates_first_collection_on_is_date" CHECK(first_collection_on IS NULL OR date(first_collection_on) IS first_collection_on),
	CONSTRAINT "sepa_mandates_reference_sepa" CHECK(length(reference) BETWEEN 1 AND 35),
	CONSTRAINT "sepa_mandates_iban_plain" CHECK(iban = upper(iban) AND instr(iban, ' ') = 0 AND length(iban) BETWEEN 15 AND 34)
);
--> statement-breakpoint
CREATE INDEX `sepa_mandates_person_idx` ON `sepa_mandates` (`person_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sepa_mandates_reference_unique` ON `sepa_mandates` (`reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `sepa_mandates_one_active_per_person` ON `sepa_mandates` (`person_id`) WHERE is_active = 1;--> statement-breakpoint
ALTER TABLE `configuration` ADD `creditor_id` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `mandate_text` text;--> statement-breakpoint
-- The stored default invoice template gets the GiroCode under its bank details (a changed
-- template is left as its owner made it).
UPDATE `templates` SET `html` = replace(`html`, '      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
  </div>', '      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
    {{#girocode}}<div class="girocode">{{{girocode}}}<div>Bequem bezahlen: GiroCode mit der Banking-App scannen</div></div>{{/girocode}}
  </div>') WHERE `name` = 'invoice' AND instr(`html`, 'girocode') = 0;
