DROP INDEX `people_is_member_idx`;--> statement-breakpoint
CREATE INDEX `people_name_nocase_idx` ON `people` ("last_name" COLLATE NOCASE,"first_name" COLLATE NOCASE);