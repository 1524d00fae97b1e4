ALTER TABLE `configuration` ADD `club_name` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `club_street` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `club_zip` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `club_city` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `club_phone` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `club_email` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `tax_number` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `tax_exemption_note` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `bank_account_holder` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `iban` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `bic` text;--> statement-breakpoint
ALTER TABLE `configuration` ADD `bank_name` text;