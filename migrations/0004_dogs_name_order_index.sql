DROP INDEX `dogs_archived_name_idx`;--> statement-breakpoint
CREATE INDEX `dogs_archived_name_nocase_idx` ON `dogs` (`archived`,"common_name" COLLATE NOCASE);