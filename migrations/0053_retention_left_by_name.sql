-- Issue 29 item 11: the retention overview's 'left' list reads a page of its people along
-- people_left_idx in its order (leaving date, name key), instead of computing every one's key.
DROP INDEX `people_left_idx`;--> statement-breakpoint
CREATE INDEX `people_left_idx` ON `people` (`member_until`,`last_name_key`) WHERE erased_on IS NULL;
