CREATE INDEX `invoice_headers_overdue_idx` ON `invoice_headers` (`due_date`) WHERE open_amount > 0;--> statement-breakpoint
CREATE INDEX `people_left_idx` ON `people` (`member_until`) WHERE erased_on IS NULL;--> statement-breakpoint
CREATE INDEX `people_not_member_created_idx` ON `people` (`created_on`) WHERE erased_on IS NULL AND is_member = 0;