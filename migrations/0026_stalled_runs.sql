ALTER TABLE `jobs` ADD `resumed_on` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `resumed_by` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `resumes` integer DEFAULT 0 NOT NULL;