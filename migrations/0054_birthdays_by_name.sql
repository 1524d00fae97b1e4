-- Issue 29 item 11: birthdays by day and by name within a day, the DIN 5007 name keys read from
-- the index instead of worked out for every birthday of the week (the home page's card).
DROP INDEX `people_annual_birthday_idx`;--> statement-breakpoint
CREATE INDEX `people_annual_birthday_idx` ON `people` (`annual_birthday`,`last_name_key`,`first_name_key`);
