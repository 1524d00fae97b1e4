CREATE TABLE `bank_statement_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` integer NOT NULL,
	`entry_key` text NOT NULL,
	`position` integer NOT NULL,
	`direction` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`booking_date` text,
	`value_date` text,
	`bank_reference` text,
	`end_to_end_id` text,
	`mandate_id` text,
	`counterparty_name` text,
	`counterparty_iban` text,
	`remittance` text DEFAULT '' NOT NULL,
	`is_return` integer DEFAULT false NOT NULL,
	`return_reason` text,
	`proposal` text NOT NULL,
	`target_type` text,
	`target_id` integer,
	`candidates` text,
	`note` text,
	`status` text DEFAULT 'OPEN' NOT NULL,
	`applied` integer,
	`booked_by` text,
	`booked_on` text,
	FOREIGN KEY (`import_id`) REFERENCES `bank_statement_imports`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "bank_statement_entries_proposal_allowed" CHECK(proposal IN ('MATCHED', 'AMBIGUOUS', 'UNMATCHED', 'RETURN', 'IGNORED')),
	CONSTRAINT "bank_statement_entries_status_allowed" CHECK(status IN ('OPEN', 'BOOKED')),
	CONSTRAINT "bank_statement_entries_target_type_allowed" CHECK(target_type IS NULL OR target_type IN ('INVOICE', 'FEE')),
	CONSTRAINT "bank_statement_entries_amount_is_money" CHECK(amount BETWEEN 0 AND 99999999)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bank_statement_entries_entry_key_unique` ON `bank_statement_entries` (`entry_key`);--> statement-breakpoint
CREATE INDEX `bank_statement_entries_import_idx` ON `bank_statement_entries` (`import_id`,`position`);--> statement-breakpoint
CREATE TABLE `bank_statement_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_name` text NOT NULL,
	`format` text NOT NULL,
	`account_iban` text,
	`statement_id` text,
	`entry_count` integer DEFAULT 0 NOT NULL,
	`duplicate_count` integer DEFAULT 0 NOT NULL,
	`imported_by` text NOT NULL,
	`imported_on` text NOT NULL,
	`last_booked_by` text,
	`last_booked_on` text,
	CONSTRAINT "bank_statement_imports_format_allowed" CHECK(format IN ('CAMT053', 'MT940'))
);
--> statement-breakpoint
CREATE INDEX `bank_statement_imports_imported_on_idx` ON `bank_statement_imports` (`imported_on`);