CREATE TABLE `direct_debit_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`fee_id` integer NOT NULL,
	`person_id` integer NOT NULL,
	`mandate_id` integer NOT NULL,
	`mandate_reference` text NOT NULL,
	`mandate_date` text NOT NULL,
	`account_holder` text NOT NULL,
	`iban` text NOT NULL,
	`bic` text,
	`end_to_end_id` text NOT NULL,
	`sequence_type` text NOT NULL,
	`due_date` text NOT NULL,
	`collection_date` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`previous_payment_reference` text,
	`previous_payment_comments` text,
	`cancelled_on` text,
	FOREIGN KEY (`run_id`) REFERENCES `direct_debit_runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fee_id`) REFERENCES `fees`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "direct_debit_items_sequence_type_allowed" CHECK(sequence_type IN ('FRST', 'RCUR')),
	CONSTRAINT "direct_debit_items_due_date_is_date" CHECK(due_date IS NULL OR date(due_date) IS due_date),
	CONSTRAINT "direct_debit_items_collection_date_is_date" CHECK(collection_date IS NULL OR date(collection_date) IS collection_date),
	CONSTRAINT "direct_debit_items_amount_positive" CHECK(amount > 0),
	CONSTRAINT "direct_debit_items_end_to_end_sepa" CHECK(length(end_to_end_id) BETWEEN 1 AND 35)
);
--> statement-breakpoint
CREATE INDEX `direct_debit_items_run_idx` ON `direct_debit_items` (`run_id`,`person_id`);--> statement-breakpoint
CREATE INDEX `direct_debit_items_end_to_end_idx` ON `direct_debit_items` (`end_to_end_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `direct_debit_items_fee_once` ON `direct_debit_items` (`fee_id`) WHERE cancelled_on IS NULL;--> statement-breakpoint
CREATE TABLE `direct_debit_runs` (
	`id` integer PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'PREPARED' NOT NULL,
	`file_key` text,
	`message_id` text NOT NULL,
	`transactions` integer DEFAULT 0 NOT NULL,
	`fees` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_on` text NOT NULL,
	`submitted_by` text,
	`submitted_on` text,
	`cancelled_by` text,
	`cancelled_on` text,
	FOREIGN KEY (`id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "direct_debit_runs_status_allowed" CHECK(status IN ('PREPARED', 'SUBMITTED', 'CANCELLED')),
	CONSTRAINT "direct_debit_runs_total_positive" CHECK(total >= 0)
);
