CREATE TABLE `certification_masters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`is_person_certification` integer DEFAULT false NOT NULL,
	`is_dog_certification` integer DEFAULT false NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "certification_masters_has_subject" CHECK(is_person_certification = 1 OR is_dog_certification = 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certification_masters_name_unique` ON `certification_masters` (`name`);--> statement-breakpoint
CREATE TABLE `certifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`person_id` integer,
	`dog_id` integer,
	`certification_master_id` integer NOT NULL,
	`date` text,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`dog_id`) REFERENCES `dogs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`certification_master_id`) REFERENCES `certification_masters`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "certifications_has_subject" CHECK(person_id IS NOT NULL OR dog_id IS NOT NULL),
	CONSTRAINT "certifications_date_is_date" CHECK(date IS NULL OR date(date) IS date)
);
--> statement-breakpoint
CREATE INDEX `certifications_person_idx` ON `certifications` (`person_id`);--> statement-breakpoint
CREATE INDEX `certifications_dog_idx` ON `certifications` (`dog_id`);--> statement-breakpoint
CREATE INDEX `certifications_master_idx` ON `certifications` (`certification_master_id`);--> statement-breakpoint
CREATE TABLE `configuration` (
	`id` integer PRIMARY KEY NOT NULL,
	`hsvrm_verein_name` text,
	`hsvrm_kg` integer,
	`hsvrm_verein_nr` integer,
	`smtp_test_account` text,
	`club_membership_enrollment_fee` integer DEFAULT 0 NOT NULL,
	`club_membership_price_full` integer DEFAULT 0 NOT NULL,
	`club_membership_price_reduced1` integer DEFAULT 0 NOT NULL,
	`club_membership_price_reduced2` integer DEFAULT 0 NOT NULL,
	`last_invoice_number` integer DEFAULT 0 NOT NULL,
	`mollie_integration` integer DEFAULT false NOT NULL,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "configuration_single_row" CHECK(id = 1),
	CONSTRAINT "configuration_club_membership_enrollment_fee_is_money" CHECK(club_membership_enrollment_fee BETWEEN 0 AND 99999999),
	CONSTRAINT "configuration_club_membership_price_full_is_money" CHECK(club_membership_price_full BETWEEN 0 AND 99999999),
	CONSTRAINT "configuration_club_membership_price_reduced1_is_money" CHECK(club_membership_price_reduced1 BETWEEN 0 AND 99999999),
	CONSTRAINT "configuration_club_membership_price_reduced2_is_money" CHECK(club_membership_price_reduced2 BETWEEN 0 AND 99999999),
	CONSTRAINT "configuration_last_invoice_number_positive" CHECK(last_invoice_number >= 0)
);
--> statement-breakpoint
CREATE TABLE `course_dates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`course_id` integer NOT NULL,
	`start_date_time` text NOT NULL,
	`end_date_time` text,
	`location_id` integer,
	`is_all_day` integer DEFAULT false NOT NULL,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "course_dates_comments_length" CHECK(comments IS NULL OR length(comments) <= 100),
	CONSTRAINT "course_dates_end_after_start" CHECK(end_date_time IS NULL OR end_date_time >= start_date_time)
);
--> statement-breakpoint
CREATE INDEX `course_dates_course_start_idx` ON `course_dates` (`course_id`,`start_date_time`);--> statement-breakpoint
CREATE INDEX `course_dates_start_idx` ON `course_dates` (`start_date_time`);--> statement-breakpoint
CREATE INDEX `course_dates_location_idx` ON `course_dates` (`location_id`);--> statement-breakpoint
CREATE TABLE `course_masters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`nr_of_sessions` integer,
	`max_dogs` integer,
	`cost_full` integer DEFAULT 0 NOT NULL,
	`cost_reduced1` integer DEFAULT 0 NOT NULL,
	`cost_reduced2` integer DEFAULT 0 NOT NULL,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "course_masters_cost_full_is_money" CHECK(cost_full BETWEEN 0 AND 99999999),
	CONSTRAINT "course_masters_cost_reduced1_is_money" CHECK(cost_reduced1 BETWEEN 0 AND 99999999),
	CONSTRAINT "course_masters_cost_reduced2_is_money" CHECK(cost_reduced2 BETWEEN 0 AND 99999999)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `course_masters_name_unique` ON `course_masters` (`name`);--> statement-breakpoint
CREATE TABLE `course_memberships` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`course_id` integer NOT NULL,
	`person_id` integer NOT NULL,
	`dog_id` integer NOT NULL,
	`status_id` integer NOT NULL,
	`fee_id` integer,
	`price` integer DEFAULT 0 NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`is_paid` integer DEFAULT false NOT NULL,
	`rabies_valid_until` text,
	`has_gdpr` integer DEFAULT false NOT NULL,
	`has_insurance` integer DEFAULT false NOT NULL,
	`comments` text,
	`person_comments` text,
	`dog_comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`dog_id`) REFERENCES `dogs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`status_id`) REFERENCES `membership_statuses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fee_id`) REFERENCES `fees`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "course_memberships_price_is_money" CHECK(price BETWEEN 0 AND 99999999),
	CONSTRAINT "course_memberships_amount_is_money" CHECK(amount BETWEEN 0 AND 99999999),
	CONSTRAINT "course_memberships_rabies_valid_until_is_date" CHECK(rabies_valid_until IS NULL OR date(rabies_valid_until) IS rabies_valid_until)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `course_memberships_course_person_dog_unique` ON `course_memberships` (`course_id`,`person_id`,`dog_id`);--> statement-breakpoint
CREATE INDEX `course_memberships_person_idx` ON `course_memberships` (`person_id`);--> statement-breakpoint
CREATE INDEX `course_memberships_dog_idx` ON `course_memberships` (`dog_id`);--> statement-breakpoint
CREATE INDEX `course_memberships_status_idx` ON `course_memberships` (`status_id`);--> statement-breakpoint
CREATE INDEX `course_memberships_fee_idx` ON `course_memberships` (`fee_id`);--> statement-breakpoint
CREATE TABLE `courses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`start_year` integer NOT NULL,
	`web_time_information` text,
	`trainer_id` integer,
	`cotrainer_id` integer,
	`start_date_time` text,
	`max_dogs` integer,
	`nr_of_sessions` integer,
	`cost_full` integer DEFAULT 0 NOT NULL,
	`cost_reduced1` integer DEFAULT 0 NOT NULL,
	`cost_reduced2` integer DEFAULT 0 NOT NULL,
	`status_code` text DEFAULT 'PLANNED' NOT NULL,
	`duration_model` text DEFAULT 'FIXED' NOT NULL,
	`pricing_model` text DEFAULT 'PER_COURSE' NOT NULL,
	`location_id` integer,
	`course_master_id` integer,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`trainer_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cotrainer_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`course_master_id`) REFERENCES `course_masters`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "courses_name_present" CHECK(length(trim(name)) > 0),
	CONSTRAINT "courses_start_year_range" CHECK(start_year BETWEEN 2000 AND 2100),
	CONSTRAINT "courses_max_dogs_positive" CHECK(max_dogs IS NULL OR max_dogs >= 0),
	CONSTRAINT "courses_nr_of_sessions_positive" CHECK(nr_of_sessions IS NULL OR nr_of_sessions >= 0),
	CONSTRAINT "courses_status_code_allowed" CHECK(status_code IN ('PLANNED', 'RUNNING', 'FINISHED')),
	CONSTRAINT "courses_duration_model_allowed" CHECK(duration_model IN ('FIXED', 'ONGOING')),
	CONSTRAINT "courses_pricing_model_allowed" CHECK(pricing_model IN ('PER_COURSE', 'PER_SESSION')),
	CONSTRAINT "courses_cost_full_is_money" CHECK(cost_full BETWEEN 0 AND 99999999),
	CONSTRAINT "courses_cost_reduced1_is_money" CHECK(cost_reduced1 BETWEEN 0 AND 99999999),
	CONSTRAINT "courses_cost_reduced2_is_money" CHECK(cost_reduced2 BETWEEN 0 AND 99999999)
);
--> statement-breakpoint
CREATE INDEX `courses_course_master_idx` ON `courses` (`course_master_id`);--> statement-breakpoint
CREATE INDEX `courses_trainer_idx` ON `courses` (`trainer_id`);--> statement-breakpoint
CREATE INDEX `courses_cotrainer_idx` ON `courses` (`cotrainer_id`);--> statement-breakpoint
CREATE INDEX `courses_location_idx` ON `courses` (`location_id`);--> statement-breakpoint
CREATE INDEX `courses_year_status_idx` ON `courses` (`start_year`,`status_code`);--> statement-breakpoint
CREATE INDEX `courses_name_idx` ON `courses` (`name`);--> statement-breakpoint
CREATE TABLE `deleted_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` integer NOT NULL,
	`deleted_on` text NOT NULL,
	`deleted_by` text NOT NULL,
	`table_name` text NOT NULL,
	`identifier1` text,
	`identifier2` text,
	`identifier3` text,
	`json` text NOT NULL,
	CONSTRAINT "deleted_records_json_valid" CHECK(json_valid(json) AND json_type(json) = 'array')
);
--> statement-breakpoint
CREATE INDEX `deleted_records_transaction_idx` ON `deleted_records` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `deleted_records_table_idx` ON `deleted_records` (`table_name`);--> statement-breakpoint
CREATE TABLE `dogs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`common_name` text NOT NULL,
	`breed` text,
	`gender` integer DEFAULT 0 NOT NULL,
	`date_of_birth` text,
	`rabies_valid_until` text,
	`chip_nr` text,
	`zucht_buch_nr` text,
	`comments` text,
	`archived` integer DEFAULT false NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "dogs_name_present" CHECK(length(trim(common_name)) > 0),
	CONSTRAINT "dogs_gender_allowed" CHECK(gender IN (0, 1, 2)),
	CONSTRAINT "dogs_date_of_birth_is_date" CHECK(date_of_birth IS NULL OR date(date_of_birth) IS date_of_birth),
	CONSTRAINT "dogs_rabies_valid_until_is_date" CHECK(rabies_valid_until IS NULL OR date(rabies_valid_until) IS rabies_valid_until)
);
--> statement-breakpoint
CREATE INDEX `dogs_owner_idx` ON `dogs` (`owner_id`);--> statement-breakpoint
CREATE INDEX `dogs_archived_name_idx` ON `dogs` (`archived`,`common_name`);--> statement-breakpoint
CREATE TABLE `fees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`person_id` integer NOT NULL,
	`date` text NOT NULL,
	`due_date` text,
	`text` text NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`open_amount` integer DEFAULT 0 NOT NULL,
	`is_open` integer GENERATED ALWAYS AS (open_amount > 0) VIRTUAL,
	`comments` text,
	`payment_comments` text,
	`send_invoice` integer DEFAULT false NOT NULL,
	`is_invoiced` integer DEFAULT false NOT NULL,
	`payment_reference` text,
	`course_membership_id` integer,
	`kind` text DEFAULT 'OTHER' NOT NULL,
	`period_year` integer,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`course_membership_id`) REFERENCES `course_memberships`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "fees_text_length" CHECK(length(trim(text)) BETWEEN 1 AND 100),
	CONSTRAINT "fees_amount_is_money" CHECK(amount BETWEEN 0 AND 99999999),
	CONSTRAINT "fees_open_amount_range" CHECK(open_amount BETWEEN 0 AND amount),
	CONSTRAINT "fees_date_is_date" CHECK(date IS NULL OR date(date) IS date),
	CONSTRAINT "fees_due_date_is_date" CHECK(due_date IS NULL OR date(due_date) IS due_date),
	CONSTRAINT "fees_kind_allowed" CHECK(kind IN ('COURSE', 'ANNUAL', 'ENROLLMENT', 'OTHER')),
	CONSTRAINT "fees_annual_has_year" CHECK(kind <> 'ANNUAL' OR period_year IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX `fees_person_idx` ON `fees` (`person_id`);--> statement-breakpoint
CREATE INDEX `fees_course_membership_idx` ON `fees` (`course_membership_id`);--> statement-breakpoint
CREATE INDEX `fees_billing_idx` ON `fees` (`send_invoice`,`is_invoiced`);--> statement-breakpoint
CREATE INDEX `fees_date_idx` ON `fees` (`date`);--> statement-breakpoint
CREATE INDEX `fees_due_date_idx` ON `fees` (`due_date`);--> statement-breakpoint
CREATE UNIQUE INDEX `fees_annual_unique` ON `fees` (`person_id`,`period_year`) WHERE kind = 'ANNUAL';--> statement-breakpoint
CREATE UNIQUE INDEX `fees_enrollment_unique` ON `fees` (`person_id`) WHERE kind = 'ENROLLMENT';--> statement-breakpoint
CREATE TABLE `invoice_headers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`person_id` integer NOT NULL,
	`invoice_number` integer NOT NULL,
	`date` text NOT NULL,
	`sent_date` text,
	`due_date` text,
	`amount` integer DEFAULT 0 NOT NULL,
	`open_amount` integer DEFAULT 0 NOT NULL,
	`is_open` integer GENERATED ALWAYS AS (open_amount > 0) VIRTUAL,
	`comments` text,
	`payment_comments` text,
	`pdf_file_path` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "invoice_headers_invoice_number_positive" CHECK(invoice_number > 0),
	CONSTRAINT "invoice_headers_amount_is_money" CHECK(amount BETWEEN 0 AND 99999999),
	CONSTRAINT "invoice_headers_open_amount_range" CHECK(open_amount BETWEEN 0 AND amount),
	CONSTRAINT "invoice_headers_date_is_date" CHECK(date IS NULL OR date(date) IS date),
	CONSTRAINT "invoice_headers_sent_date_is_date" CHECK(sent_date IS NULL OR date(sent_date) IS sent_date),
	CONSTRAINT "invoice_headers_due_date_is_date" CHECK(due_date IS NULL OR date(due_date) IS due_date)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_headers_invoice_number_unique` ON `invoice_headers` (`invoice_number`);--> statement-breakpoint
CREATE INDEX `invoice_headers_person_idx` ON `invoice_headers` (`person_id`);--> statement-breakpoint
CREATE INDEX `invoice_headers_pdf_file_path_idx` ON `invoice_headers` (`pdf_file_path`);--> statement-breakpoint
CREATE INDEX `invoice_headers_date_idx` ON `invoice_headers` (`date`);--> statement-breakpoint
CREATE TABLE `invoice_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`fee_id` integer,
	`line_number` integer DEFAULT 1 NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoice_headers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fee_id`) REFERENCES `fees`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "invoice_rows_line_number_positive" CHECK(line_number >= 1),
	CONSTRAINT "invoice_rows_amount_is_money" CHECK(amount BETWEEN -99999999 AND 99999999)
);
--> statement-breakpoint
CREATE INDEX `invoice_rows_invoice_line_idx` ON `invoice_rows` (`invoice_id`,`line_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_rows_fee_unique` ON `invoice_rows` (`fee_id`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`status` text DEFAULT 'QUEUED' NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`message` text,
	`params` text,
	`started_on` text,
	`finished_on` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "jobs_status_allowed" CHECK(status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED')),
	CONSTRAINT "jobs_counts_sane" CHECK(total >= 0 AND done >= 0 AND failed >= 0 AND done + failed <= total),
	CONSTRAINT "jobs_params_json" CHECK(params IS NULL OR json_valid(params))
);
--> statement-breakpoint
CREATE INDEX `jobs_type_created_idx` ON `jobs` (`type`,`created_on`);--> statement-breakpoint
CREATE INDEX `jobs_status_idx` ON `jobs` (`status`);--> statement-breakpoint
CREATE TABLE `locations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`street_number` text,
	`zip` text,
	`city` text,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `locations_name_unique` ON `locations` (`name`);--> statement-breakpoint
CREATE TABLE `mailshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`recipient_query` text NOT NULL,
	`template_name` text NOT NULL,
	`subject` text NOT NULL,
	`cc` text,
	`attach_invoice` integer DEFAULT false NOT NULL,
	`attach_doc_path1` text,
	`attach_doc_path2` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mailshots_name_unique` ON `mailshots` (`name`);--> statement-breakpoint
CREATE TABLE `member_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`course_price_tier` text DEFAULT 'FULL' NOT NULL,
	`annual_fee_tier` text DEFAULT 'NONE' NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "member_types_course_price_tier_allowed" CHECK(course_price_tier IN ('FULL', 'REDUCED1', 'REDUCED2')),
	CONSTRAINT "member_types_annual_fee_tier_allowed" CHECK(annual_fee_tier IN ('NONE', 'FULL', 'REDUCED1', 'REDUCED2'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `member_types_code_unique` ON `member_types` (`code`);--> statement-breakpoint
CREATE TABLE `membership_statuses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`applies_to` text NOT NULL,
	`is_fee_trigger` integer DEFAULT false NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "membership_statuses_applies_to_allowed" CHECK(applies_to IN ('PERSON', 'COURSE'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `membership_statuses_code_unique` ON `membership_statuses` (`code`);--> statement-breakpoint
CREATE TABLE `people` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`salutation` text,
	`title` text,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`full_name` text GENERATED ALWAYS AS (trim(first_name || ' ' || last_name)) VIRTUAL,
	`street_number` text,
	`zip` text,
	`city` text,
	`email` text,
	`home_phone` text,
	`mobile_phone` text,
	`date_of_birth` text,
	`annual_birthday` text GENERATED ALWAYS AS (substr(date_of_birth, 6, 5)) VIRTUAL,
	`is_member` integer DEFAULT false NOT NULL,
	`member_since` text,
	`member_until` text,
	`member_type_id` integer NOT NULL,
	`membership_status_id` integer,
	`hsvrm_nr` text,
	`is_vorstand` integer DEFAULT false NOT NULL,
	`is_trainer` integer DEFAULT false NOT NULL,
	`has_gdpr` integer DEFAULT false NOT NULL,
	`has_insurance` integer DEFAULT false NOT NULL,
	`comments` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`member_type_id`) REFERENCES `member_types`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`membership_status_id`) REFERENCES `membership_statuses`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "people_names_present" CHECK(length(trim(last_name)) > 0),
	CONSTRAINT "people_salutation_allowed" CHECK(salutation IS NULL OR salutation IN ('Herr', 'Frau')),
	CONSTRAINT "people_date_of_birth_is_date" CHECK(date_of_birth IS NULL OR date(date_of_birth) IS date_of_birth),
	CONSTRAINT "people_member_since_is_date" CHECK(member_since IS NULL OR date(member_since) IS member_since),
	CONSTRAINT "people_member_until_is_date" CHECK(member_until IS NULL OR date(member_until) IS member_until),
	CONSTRAINT "people_membership_period" CHECK(member_until IS NULL OR member_since IS NULL OR member_until >= member_since)
);
--> statement-breakpoint
CREATE INDEX `people_name_idx` ON `people` (`last_name`,`first_name`);--> statement-breakpoint
CREATE INDEX `people_first_name_idx` ON `people` (`first_name`);--> statement-breakpoint
CREATE INDEX `people_member_type_idx` ON `people` (`member_type_id`);--> statement-breakpoint
CREATE INDEX `people_membership_status_idx` ON `people` (`membership_status_id`);--> statement-breakpoint
CREATE INDEX `people_is_member_idx` ON `people` (`is_member`);--> statement-breakpoint
CREATE INDEX `people_is_trainer_idx` ON `people` (`is_trainer`);--> statement-breakpoint
CREATE INDEX `people_annual_birthday_idx` ON `people` (`annual_birthday`);