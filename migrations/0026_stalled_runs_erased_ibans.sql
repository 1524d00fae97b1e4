CREATE TABLE `erased_ibans` (
	`iban_hash` text PRIMARY KEY NOT NULL,
	`erased_on` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `resumed_on` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `resumed_by` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `resumes` integer DEFAULT 0 NOT NULL;