CREATE TABLE `reminder_levels` (
	`level` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`title` text NOT NULL,
	`days` integer NOT NULL,
	`fee` integer DEFAULT 0 NOT NULL,
	`payment_term_days` integer NOT NULL,
	`mail_template` text NOT NULL,
	`letter_template` text NOT NULL,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	CONSTRAINT "reminder_levels_level_range" CHECK(level BETWEEN 1 AND 3),
	CONSTRAINT "reminder_levels_days_range" CHECK(days BETWEEN 1 AND 365),
	CONSTRAINT "reminder_levels_term_range" CHECK(payment_term_days BETWEEN 1 AND 365),
	CONSTRAINT "reminder_levels_title_length" CHECK(length(trim(title)) BETWEEN 1 AND 50),
	CONSTRAINT "reminder_levels_fee_is_money" CHECK(fee BETWEEN 0 AND 99999999)
);
--> statement-breakpoint
CREATE TABLE `reminders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`target_type` text NOT NULL,
	`target_id` integer NOT NULL,
	`person_id` integer NOT NULL,
	`level` integer NOT NULL,
	`date` text NOT NULL,
	`new_due_date` text NOT NULL,
	`open_amount` integer DEFAULT 0 NOT NULL,
	`fee_id` integer,
	`channel` text,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`job_id` integer,
	`sent_on` text,
	`sent_by` text,
	`cancelled_on` text,
	`cancelled_by` text,
	`mail_log_id` integer,
	`pdf_key` text,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fee_id`) REFERENCES `fees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "reminders_target_type_allowed" CHECK(target_type IN ('INVOICE', 'FEE')),
	CONSTRAINT "reminders_status_allowed" CHECK(status IN ('PENDING', 'SENT', 'CANCELLED')),
	CONSTRAINT "reminders_channel_allowed" CHECK(channel IS NULL OR channel IN ('MAIL', 'PRINT')),
	CONSTRAINT "reminders_level_range" CHECK(level BETWEEN 1 AND 3),
	CONSTRAINT "reminders_date_is_date" CHECK(date IS NULL OR date(date) IS date),
	CONSTRAINT "reminders_new_due_date_is_date" CHECK(new_due_date IS NULL OR date(new_due_date) IS new_due_date),
	CONSTRAINT "reminders_open_amount_is_money" CHECK(open_amount BETWEEN 0 AND 99999999)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reminders_target_level_unique` ON `reminders` (`target_type`,`target_id`,`level`) WHERE status <> 'CANCELLED';--> statement-breakpoint
CREATE INDEX `reminders_target_idx` ON `reminders` (`target_type`,`target_id`,`status`);--> statement-breakpoint
CREATE INDEX `reminders_person_idx` ON `reminders` (`person_id`,`date`);--> statement-breakpoint
CREATE INDEX `reminders_job_idx` ON `reminders` (`job_id`);--> statement-breakpoint
-- The kind check gains 'REMINDER': SQLite changes a CHECK only by rebuilding the table. D1 runs a
-- migration in one transaction, where foreign_keys=OFF has no effect: defer_foreign_keys lets the
-- references to fees (invoice_rows, reminders) dangle until the renamed table answers them again.
-- The generated column is_open is computed, not copied; the two new columns start NULL.
-- Dropping fees first deletes its rows, and that fires the ON DELETE actions of the tables that
-- reference it (course_memberships.fee_id SET NULL, direct_debit_items CASCADE): their values are
-- kept aside here and put back after the rename. The write context ERASE keeps the history
-- triggers from recording this technical copy.
INSERT OR REPLACE INTO write_context (id, actor, action, source) VALUES (1, 'Migration', 'ERASE', NULL);--> statement-breakpoint
CREATE TABLE `__keep_membership_fees` AS SELECT id, fee_id FROM course_memberships WHERE fee_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `__keep_direct_debit_items` AS SELECT * FROM direct_debit_items;--> statement-breakpoint
PRAGMA defer_foreign_keys=ON;--> statement-breakpoint
CREATE TABLE `__new_fees` (
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
	`job_id` integer,
	`payment_link_id` text,
	`payment_link_url` text,
	`payment_link_amount` integer,
	`reminded_invoice_id` integer,
	`reminded_fee_id` integer,
	`created_by` text DEFAULT 'system' NOT NULL,
	`created_on` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_modified_by` text,
	`last_modified_on` text,
	`row_version` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`person_id`) REFERENCES `people`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`course_membership_id`) REFERENCES `course_memberships`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "fees_text_length" CHECK(length(trim(text)) BETWEEN 1 AND 100),
	CONSTRAINT "fees_amount_is_money" CHECK(amount BETWEEN 0 AND 99999999),
	CONSTRAINT "fees_open_amount_range" CHECK(open_amount BETWEEN 0 AND amount),
	CONSTRAINT "fees_date_is_date" CHECK(date IS NULL OR date(date) IS date),
	CONSTRAINT "fees_due_date_is_date" CHECK(due_date IS NULL OR date(due_date) IS due_date),
	CONSTRAINT "fees_kind_allowed" CHECK(kind IN ('COURSE', 'ANNUAL', 'ENROLLMENT', 'OTHER', 'REMINDER')),
	CONSTRAINT "fees_annual_has_year" CHECK(kind <> 'ANNUAL' OR period_year IS NOT NULL)
);
--> statement-breakpoint
INSERT INTO `__new_fees`("id", "person_id", "date", "due_date", "text", "amount", "open_amount", "comments", "payment_comments", "send_invoice", "is_invoiced", "payment_reference", "course_membership_id", "kind", "period_year", "job_id", "payment_link_id", "payment_link_url", "payment_link_amount", "created_by", "created_on", "last_modified_by", "last_modified_on", "row_version") SELECT "id", "person_id", "date", "due_date", "text", "amount", "open_amount", "comments", "payment_comments", "send_invoice", "is_invoiced", "payment_reference", "course_membership_id", "kind", "period_year", "job_id", "payment_link_id", "payment_link_url", "payment_link_amount", "created_by", "created_on", "last_modified_by", "last_modified_on", "row_version" FROM `fees`;--> statement-breakpoint
-- Keep the AUTOINCREMENT counter: an id of a deleted fee (Papierkorb) is never handed out again.
DELETE FROM sqlite_sequence WHERE name = '__new_fees';--> statement-breakpoint
INSERT INTO sqlite_sequence (name, seq) SELECT '__new_fees', seq FROM sqlite_sequence WHERE name = 'fees';--> statement-breakpoint
DROP TABLE `fees`;--> statement-breakpoint
ALTER TABLE `__new_fees` RENAME TO `fees`;--> statement-breakpoint
UPDATE course_memberships SET fee_id = (SELECT k.fee_id FROM `__keep_membership_fees` k WHERE k.id = course_memberships.id) WHERE id IN (SELECT id FROM `__keep_membership_fees`);--> statement-breakpoint
INSERT INTO direct_debit_items SELECT * FROM `__keep_direct_debit_items` WHERE id NOT IN (SELECT id FROM direct_debit_items);--> statement-breakpoint
DROP TABLE `__keep_membership_fees`;--> statement-breakpoint
DROP TABLE `__keep_direct_debit_items`;--> statement-breakpoint
DELETE FROM write_context WHERE id = 1;--> statement-breakpoint
PRAGMA defer_foreign_keys=OFF;--> statement-breakpoint
CREATE INDEX `fees_person_idx` ON `fees` (`person_id`);--> statement-breakpoint
CREATE INDEX `fees_job_idx` ON `fees` (`job_id`);--> statement-breakpoint
CREATE INDEX `fees_course_membership_idx` ON `fees` (`course_membership_id`);--> statement-breakpoint
CREATE INDEX `fees_billing_idx` ON `fees` (`send_invoice`,`is_invoiced`);--> statement-breakpoint
CREATE INDEX `fees_date_idx` ON `fees` (`date`);--> statement-breakpoint
CREATE INDEX `fees_due_date_idx` ON `fees` (`due_date`);--> statement-breakpoint
CREATE INDEX `fees_totals_idx` ON `fees` (`open_amount`,`is_invoiced`,`due_date`,`amount`);--> statement-breakpoint
CREATE UNIQUE INDEX `fees_annual_unique` ON `fees` (`person_id`,`period_year`) WHERE kind = 'ANNUAL';--> statement-breakpoint
CREATE UNIQUE INDEX `fees_enrollment_unique` ON `fees` (`person_id`) WHERE kind = 'ENROLLMENT';
--> statement-breakpoint
-- Data: the three reminder levels and their German default templates (mails of kind MAIL, letters
-- of kind INVOICE: HTML printed to PDF like the invoice). Hand-written: keep it when regenerating.
-- ON CONFLICT keeps a template an ADMIN already has under that name. The fee mail template
-- 'Zahlungserinnerung' (0015) stays as it is: the run's mails have their own names.
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Zahlungserinnerung (Mahnlauf)', 'MAIL', 'Zahlungserinnerung: {{itemText}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>bei uns ist noch ein Betrag offen, dessen Zahlungsfrist abgelaufen ist:</p>
<p><strong>{{itemText}}</strong>: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen <strong>{{total}}</strong>.</p>
<p>Bitte überweise den Betrag bis zum <strong>{{newDueDate}}</strong> unter Angabe von <strong>{{paymentReference}}</strong>. Das Schreiben liegt als PDF bei.</p>
{{#paymentLink}}<p>Bequem online bezahlen: <a href="{{paymentLink}}">{{paymentLink}}</a></p>
{{/paymentLink}}<p>Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

bei uns ist noch ein Betrag offen, dessen Zahlungsfrist abgelaufen ist:

{{itemText}}: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen {{total}}.

Bitte überweise den Betrag bis zum {{newDueDate}} unter Angabe von {{paymentReference}}. Das Schreiben liegt als PDF bei.
{{#paymentLink}}
Bequem online bezahlen: {{paymentLink}}
{{/paymentLink}}
Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.

Viele Grüße
{{club}}
', 'Mahnlauf, Stufe 1 (Zahlungserinnerung): die Mail, das Schreiben als PDF im Anhang', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Zahlungserinnerung (Brief)', 'INVOICE', NULL, '<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>{{title}}</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.4; color: #1e293b; }
  .head { display: flex; justify-content: space-between; align-items: flex-start; }
  .club { text-align: right; font-size: 9pt; }
  .club strong { display: block; font-size: 13pt; color: #7c2d12; }
  .sender { font-size: 7pt; color: #64748b; border-bottom: 0.5pt solid #94a3b8; display: inline-block; margin-bottom: 2mm; }
  .address { margin-top: 12mm; min-height: 35mm; }
  .facts { margin-top: 4mm; border-collapse: collapse; font-size: 9.5pt; }
  .facts th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  h1 { font-size: 16pt; margin: 10mm 0 4mm; }
  table.rows { width: 100%; border-collapse: collapse; margin-top: 4mm; }
  table.rows th { text-align: left; border-bottom: 1pt solid #334155; padding: 1.5mm 2mm; }
  table.rows td { border-bottom: 0.5pt solid #cbd5e1; padding: 1.5mm 2mm; vertical-align: top; }
  table.rows tr { page-break-inside: avoid; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: bold; border-bottom: none; border-top: 1pt solid #334155; }
  .payment { margin-top: 8mm; page-break-inside: avoid; }
  .bank { margin-top: 2mm; border-collapse: collapse; }
  .bank th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }
  .girocode svg { display: block; margin-bottom: 1mm; }
</style>
</head>
<body>
  <div class="head">
    <div class="address">
      <div class="sender">{{club.name}} · {{club.street}} · {{club.zipCity}}</div>
      <div>{{person.name}}</div>
      <div>{{person.street}}</div>
      <div>{{person.zipCity}}</div>
    </div>
    <div class="club">
      <strong>{{club.name}}</strong>
      <div>{{club.street}}</div>
      <div>{{club.zipCity}}</div>
      {{#club.phone}}<div>Telefon: {{club.phone}}</div>{{/club.phone}}
      {{#club.email}}<div>E-Mail: {{club.email}}</div>{{/club.email}}
    </div>
  </div>
  <table class="facts">
    <tr><th>Datum</th><td>{{date}}</td></tr>
    <tr><th>Zahlbar bis</th><td>{{newDueDate}}</td></tr>
  </table>
  <h1>{{title}}</h1>
  <p>{{salutation}}</p>
  <p>sicher ist es Ihrer Aufmerksamkeit entgangen: Die folgenden Beträge sind noch offen.</p>
  <table class="rows">
    <thead><tr><th>Posten</th><th>Fällig seit</th><th class="num">Offen</th></tr></thead>
    <tbody>
      {{#items}}<tr><td>{{text}}</td><td>{{dueDate}}</td><td class="num">{{openAmount}}</td></tr>{{/items}}
      {{#reminderFee}}<tr><td>Mahngebühr</td><td></td><td class="num">{{reminderFee}}</td></tr>{{/reminderFee}}
    </tbody>
    <tfoot><tr><td>Summe</td><td></td><td class="num">{{total}}</td></tr></tfoot>
  </table>
  <div class="payment">
    <p>Bitte überweisen Sie den Betrag von {{total}} bis zum <strong>{{newDueDate}}</strong> unter Angabe des Verwendungszwecks <strong>{{paymentReference}}</strong> auf folgendes Konto:</p>
    <table class="bank">
      <tr><th>Kontoinhaber</th><td>{{club.bank.accountHolder}}</td></tr>
      <tr><th>IBAN</th><td>{{club.bank.iban}}</td></tr>
      <tr><th>BIC</th><td>{{club.bank.bic}}</td></tr>
      {{#club.bank.name}}<tr><th>Bank</th><td>{{club.bank.name}}</td></tr>{{/club.bank.name}}
      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
    {{#girocode}}<div class="girocode">{{{girocode}}}<div>Bequem bezahlen: GiroCode mit der Banking-App scannen</div></div>{{/girocode}}
    {{#paymentLink}}<p>Oder online bezahlen: {{paymentLink}}</p>{{/paymentLink}}
  </div>
  <p>Sollten Sie den Betrag inzwischen überwiesen haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.</p>
  <p>Mit freundlichen Grüßen<br>{{club.name}}</p>
</body>
</html>
', NULL, 'Mahnlauf, Stufe 1 (Zahlungserinnerung): das Schreiben (PDF)', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `reminder_levels` (`level`, `enabled`, `title`, `days`, `fee`, `payment_term_days`, `mail_template`, `letter_template`) VALUES (1, 1, 'Zahlungserinnerung', 14, 0, 14, 'Zahlungserinnerung (Mahnlauf)', 'Zahlungserinnerung (Brief)');
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('1. Mahnung', 'MAIL', '1. Mahnung: {{itemText}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>trotz unserer Zahlungserinnerung ist bei uns noch folgender Betrag offen:</p>
<p><strong>{{itemText}}</strong>: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen <strong>{{total}}</strong>.</p>
<p>Bitte überweise den Betrag bis zum <strong>{{newDueDate}}</strong> unter Angabe von <strong>{{paymentReference}}</strong>. Das Schreiben liegt als PDF bei.</p>
{{#paymentLink}}<p>Bequem online bezahlen: <a href="{{paymentLink}}">{{paymentLink}}</a></p>
{{/paymentLink}}<p>Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

trotz unserer Zahlungserinnerung ist bei uns noch folgender Betrag offen:

{{itemText}}: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen {{total}}.

Bitte überweise den Betrag bis zum {{newDueDate}} unter Angabe von {{paymentReference}}. Das Schreiben liegt als PDF bei.
{{#paymentLink}}
Bequem online bezahlen: {{paymentLink}}
{{/paymentLink}}
Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.

Viele Grüße
{{club}}
', 'Mahnlauf, Stufe 2 (1. Mahnung): die Mail, das Schreiben als PDF im Anhang', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('1. Mahnung (Brief)', 'INVOICE', NULL, '<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>{{title}}</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.4; color: #1e293b; }
  .head { display: flex; justify-content: space-between; align-items: flex-start; }
  .club { text-align: right; font-size: 9pt; }
  .club strong { display: block; font-size: 13pt; color: #7c2d12; }
  .sender { font-size: 7pt; color: #64748b; border-bottom: 0.5pt solid #94a3b8; display: inline-block; margin-bottom: 2mm; }
  .address { margin-top: 12mm; min-height: 35mm; }
  .facts { margin-top: 4mm; border-collapse: collapse; font-size: 9.5pt; }
  .facts th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  h1 { font-size: 16pt; margin: 10mm 0 4mm; }
  table.rows { width: 100%; border-collapse: collapse; margin-top: 4mm; }
  table.rows th { text-align: left; border-bottom: 1pt solid #334155; padding: 1.5mm 2mm; }
  table.rows td { border-bottom: 0.5pt solid #cbd5e1; padding: 1.5mm 2mm; vertical-align: top; }
  table.rows tr { page-break-inside: avoid; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: bold; border-bottom: none; border-top: 1pt solid #334155; }
  .payment { margin-top: 8mm; page-break-inside: avoid; }
  .bank { margin-top: 2mm; border-collapse: collapse; }
  .bank th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }
  .girocode svg { display: block; margin-bottom: 1mm; }
</style>
</head>
<body>
  <div class="head">
    <div class="address">
      <div class="sender">{{club.name}} · {{club.street}} · {{club.zipCity}}</div>
      <div>{{person.name}}</div>
      <div>{{person.street}}</div>
      <div>{{person.zipCity}}</div>
    </div>
    <div class="club">
      <strong>{{club.name}}</strong>
      <div>{{club.street}}</div>
      <div>{{club.zipCity}}</div>
      {{#club.phone}}<div>Telefon: {{club.phone}}</div>{{/club.phone}}
      {{#club.email}}<div>E-Mail: {{club.email}}</div>{{/club.email}}
    </div>
  </div>
  <table class="facts">
    <tr><th>Datum</th><td>{{date}}</td></tr>
    <tr><th>Zahlbar bis</th><td>{{newDueDate}}</td></tr>
  </table>
  <h1>{{title}}</h1>
  <p>{{salutation}}</p>
  <p>leider haben wir trotz unserer Zahlungserinnerung noch keinen Zahlungseingang feststellen können. Die folgenden Beträge sind weiterhin offen.</p>
  <table class="rows">
    <thead><tr><th>Posten</th><th>Fällig seit</th><th class="num">Offen</th></tr></thead>
    <tbody>
      {{#items}}<tr><td>{{text}}</td><td>{{dueDate}}</td><td class="num">{{openAmount}}</td></tr>{{/items}}
      {{#reminderFee}}<tr><td>Mahngebühr</td><td></td><td class="num">{{reminderFee}}</td></tr>{{/reminderFee}}
    </tbody>
    <tfoot><tr><td>Summe</td><td></td><td class="num">{{total}}</td></tr></tfoot>
  </table>
  <div class="payment">
    <p>Bitte überweisen Sie den Betrag von {{total}} bis zum <strong>{{newDueDate}}</strong> unter Angabe des Verwendungszwecks <strong>{{paymentReference}}</strong> auf folgendes Konto:</p>
    <table class="bank">
      <tr><th>Kontoinhaber</th><td>{{club.bank.accountHolder}}</td></tr>
      <tr><th>IBAN</th><td>{{club.bank.iban}}</td></tr>
      <tr><th>BIC</th><td>{{club.bank.bic}}</td></tr>
      {{#club.bank.name}}<tr><th>Bank</th><td>{{club.bank.name}}</td></tr>{{/club.bank.name}}
      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
    {{#girocode}}<div class="girocode">{{{girocode}}}<div>Bequem bezahlen: GiroCode mit der Banking-App scannen</div></div>{{/girocode}}
    {{#paymentLink}}<p>Oder online bezahlen: {{paymentLink}}</p>{{/paymentLink}}
  </div>
  <p>Sollten Sie den Betrag inzwischen überwiesen haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.</p>
  <p>Mit freundlichen Grüßen<br>{{club.name}}</p>
</body>
</html>
', NULL, 'Mahnlauf, Stufe 2 (1. Mahnung): das Schreiben (PDF)', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `reminder_levels` (`level`, `enabled`, `title`, `days`, `fee`, `payment_term_days`, `mail_template`, `letter_template`) VALUES (2, 1, '1. Mahnung', 14, 500, 14, '1. Mahnung', '1. Mahnung (Brief)');
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('2. Mahnung', 'MAIL', '2. Mahnung: {{itemText}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>{{greeting}},</p>
<p>trotz unserer Mahnung ist bei uns noch immer folgender Betrag offen:</p>
<p><strong>{{itemText}}</strong>: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen <strong>{{total}}</strong>.</p>
<p>Bitte überweise den Betrag bis zum <strong>{{newDueDate}}</strong> unter Angabe von <strong>{{paymentReference}}</strong>. Das Schreiben liegt als PDF bei.</p>
{{#paymentLink}}<p>Bequem online bezahlen: <a href="{{paymentLink}}">{{paymentLink}}</a></p>
{{/paymentLink}}<p>Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', '{{greeting}},

trotz unserer Mahnung ist bei uns noch immer folgender Betrag offen:

{{itemText}}: offen {{openAmount}}{{#reminderFee}}, zuzüglich Mahngebühr {{reminderFee}}{{/reminderFee}}, zusammen {{total}}.

Bitte überweise den Betrag bis zum {{newDueDate}} unter Angabe von {{paymentReference}}. Das Schreiben liegt als PDF bei.
{{#paymentLink}}
Bequem online bezahlen: {{paymentLink}}
{{/paymentLink}}
Falls Du in der Zwischenzeit bezahlt hast, betrachte diese Mail bitte als gegenstandslos.

Viele Grüße
{{club}}
', 'Mahnlauf, Stufe 3 (2. Mahnung): die Mail, das Schreiben als PDF im Anhang', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('2. Mahnung (Brief)', 'INVOICE', NULL, '<!DOCTYPE html>
<html lang="de">
<head>
<meta charset="utf-8">
<title>{{title}}</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; line-height: 1.4; color: #1e293b; }
  .head { display: flex; justify-content: space-between; align-items: flex-start; }
  .club { text-align: right; font-size: 9pt; }
  .club strong { display: block; font-size: 13pt; color: #7c2d12; }
  .sender { font-size: 7pt; color: #64748b; border-bottom: 0.5pt solid #94a3b8; display: inline-block; margin-bottom: 2mm; }
  .address { margin-top: 12mm; min-height: 35mm; }
  .facts { margin-top: 4mm; border-collapse: collapse; font-size: 9.5pt; }
  .facts th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  h1 { font-size: 16pt; margin: 10mm 0 4mm; }
  table.rows { width: 100%; border-collapse: collapse; margin-top: 4mm; }
  table.rows th { text-align: left; border-bottom: 1pt solid #334155; padding: 1.5mm 2mm; }
  table.rows td { border-bottom: 0.5pt solid #cbd5e1; padding: 1.5mm 2mm; vertical-align: top; }
  table.rows tr { page-break-inside: avoid; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: bold; border-bottom: none; border-top: 1pt solid #334155; }
  .payment { margin-top: 8mm; page-break-inside: avoid; }
  .bank { margin-top: 2mm; border-collapse: collapse; }
  .bank th { text-align: left; font-weight: normal; color: #475569; padding-right: 6mm; }
  .girocode { margin-top: 4mm; font-size: 8pt; color: #475569; }
  .girocode svg { display: block; margin-bottom: 1mm; }
</style>
</head>
<body>
  <div class="head">
    <div class="address">
      <div class="sender">{{club.name}} · {{club.street}} · {{club.zipCity}}</div>
      <div>{{person.name}}</div>
      <div>{{person.street}}</div>
      <div>{{person.zipCity}}</div>
    </div>
    <div class="club">
      <strong>{{club.name}}</strong>
      <div>{{club.street}}</div>
      <div>{{club.zipCity}}</div>
      {{#club.phone}}<div>Telefon: {{club.phone}}</div>{{/club.phone}}
      {{#club.email}}<div>E-Mail: {{club.email}}</div>{{/club.email}}
    </div>
  </div>
  <table class="facts">
    <tr><th>Datum</th><td>{{date}}</td></tr>
    <tr><th>Zahlbar bis</th><td>{{newDueDate}}</td></tr>
  </table>
  <h1>{{title}}</h1>
  <p>{{salutation}}</p>
  <p>trotz unserer Mahnung sind die folgenden Beträge noch immer offen. Bitte begleichen Sie sie umgehend.</p>
  <table class="rows">
    <thead><tr><th>Posten</th><th>Fällig seit</th><th class="num">Offen</th></tr></thead>
    <tbody>
      {{#items}}<tr><td>{{text}}</td><td>{{dueDate}}</td><td class="num">{{openAmount}}</td></tr>{{/items}}
      {{#reminderFee}}<tr><td>Mahngebühr</td><td></td><td class="num">{{reminderFee}}</td></tr>{{/reminderFee}}
    </tbody>
    <tfoot><tr><td>Summe</td><td></td><td class="num">{{total}}</td></tr></tfoot>
  </table>
  <div class="payment">
    <p>Bitte überweisen Sie den Betrag von {{total}} bis zum <strong>{{newDueDate}}</strong> unter Angabe des Verwendungszwecks <strong>{{paymentReference}}</strong> auf folgendes Konto:</p>
    <table class="bank">
      <tr><th>Kontoinhaber</th><td>{{club.bank.accountHolder}}</td></tr>
      <tr><th>IBAN</th><td>{{club.bank.iban}}</td></tr>
      <tr><th>BIC</th><td>{{club.bank.bic}}</td></tr>
      {{#club.bank.name}}<tr><th>Bank</th><td>{{club.bank.name}}</td></tr>{{/club.bank.name}}
      <tr><th>Verwendungszweck</th><td>{{paymentReference}}</td></tr>
    </table>
    {{#girocode}}<div class="girocode">{{{girocode}}}<div>Bequem bezahlen: GiroCode mit der Banking-App scannen</div></div>{{/girocode}}
    {{#paymentLink}}<p>Oder online bezahlen: {{paymentLink}}</p>{{/paymentLink}}
  </div>
  <p>Sollten Sie den Betrag inzwischen überwiesen haben, betrachten Sie dieses Schreiben bitte als gegenstandslos.</p>
  <p>Mit freundlichen Grüßen<br>{{club.name}}</p>
</body>
</html>
', NULL, 'Mahnlauf, Stufe 3 (2. Mahnung): das Schreiben (PDF)', 'system') ON CONFLICT(`name`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `reminder_levels` (`level`, `enabled`, `title`, `days`, `fee`, `payment_term_days`, `mail_template`, `letter_template`) VALUES (3, 1, '2. Mahnung', 14, 1000, 7, '2. Mahnung', '2. Mahnung (Brief)');
--> statement-breakpoint
--> statement-breakpoint
--> statement-breakpoint
-- Generated by scripts/history-triggers.ts from app/db/schema.ts (app/db/history.ts): do not edit.
DROP TRIGGER IF EXISTS history_member_types_insert;
--> statement-breakpoint
CREATE TRIGGER history_member_types_insert AFTER INSERT ON member_types WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('member_types', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'code', json_array(NULL, NEW."code"), 'name', json_array(NULL, NEW."name"), 'course_price_tier', json_array(NULL, NEW."course_price_tier"), 'annual_fee_tier', json_array(NULL, NEW."annual_fee_tier"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_member_types_update;
--> statement-breakpoint
CREATE TRIGGER history_member_types_update AFTER UPDATE ON member_types WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."code" IS NOT NEW."code" OR OLD."name" IS NOT NEW."name" OR OLD."course_price_tier" IS NOT NEW."course_price_tier" OR OLD."annual_fee_tier" IS NOT NEW."annual_fee_tier" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('member_types', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'code', CASE WHEN OLD."code" IS NOT NEW."code" THEN json_array(OLD."code", NEW."code") END , 'name', CASE WHEN OLD."name" IS NOT NEW."name" THEN json_array(OLD."name", NEW."name") END , 'course_price_tier', CASE WHEN OLD."course_price_tier" IS NOT NEW."course_price_tier" THEN json_array(OLD."course_price_tier", NEW."course_price_tier") END , 'annual_fee_tier', CASE WHEN OLD."annual_fee_tier" IS NOT NEW."annual_fee_tier" THEN json_array(OLD."annual_fee_tier", NEW."annual_fee_tier") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_member_types_delete;
--> statement-breakpoint
CREATE TRIGGER history_member_types_delete AFTER DELETE ON member_types WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('member_types', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'code', json_array(OLD."code", NULL), 'name', json_array(OLD."name", NULL), 'course_price_tier', json_array(OLD."course_price_tier", NULL), 'annual_fee_tier', json_array(OLD."annual_fee_tier", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_membership_statuses_insert;
--> statement-breakpoint
CREATE TRIGGER history_membership_statuses_insert AFTER INSERT ON membership_statuses WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('membership_statuses', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'code', json_array(NULL, NEW."code"), 'name', json_array(NULL, NEW."name"), 'applies_to', json_array(NULL, NEW."applies_to"), 'is_fee_trigger', json_array(NULL, NEW."is_fee_trigger"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_membership_statuses_update;
--> statement-breakpoint
CREATE TRIGGER history_membership_statuses_update AFTER UPDATE ON membership_statuses WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."code" IS NOT NEW."code" OR OLD."name" IS NOT NEW."name" OR OLD."applies_to" IS NOT NEW."applies_to" OR OLD."is_fee_trigger" IS NOT NEW."is_fee_trigger" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('membership_statuses', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'code', CASE WHEN OLD."code" IS NOT NEW."code" THEN json_array(OLD."code", NEW."code") END , 'name', CASE WHEN OLD."name" IS NOT NEW."name" THEN json_array(OLD."name", NEW."name") END , 'applies_to', CASE WHEN OLD."applies_to" IS NOT NEW."applies_to" THEN json_array(OLD."applies_to", NEW."applies_to") END , 'is_fee_trigger', CASE WHEN OLD."is_fee_trigger" IS NOT NEW."is_fee_trigger" THEN json_array(OLD."is_fee_trigger", NEW."is_fee_trigger") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_membership_statuses_delete;
--> statement-breakpoint
CREATE TRIGGER history_membership_statuses_delete AFTER DELETE ON membership_statuses WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('membership_statuses', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'code', json_array(OLD."code", NULL), 'name', json_array(OLD."name", NULL), 'applies_to', json_array(OLD."applies_to", NULL), 'is_fee_trigger', json_array(OLD."is_fee_trigger", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_people_insert;
--> statement-breakpoint
CREATE TRIGGER history_people_insert AFTER INSERT ON people WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('people', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'salutation', json_array(NULL, NEW."salutation"), 'title', json_array(NULL, NEW."title"), 'first_name', json_array(NULL, NEW."first_name"), 'last_name', json_array(NULL, NEW."last_name"), 'street_number', json_array(NULL, NEW."street_number"), 'zip', json_array(NULL, NEW."zip"), 'city', json_array(NULL, NEW."city"), 'email', json_array(NULL, NEW."email"), 'home_phone', json_array(NULL, NEW."home_phone"), 'mobile_phone', json_array(NULL, NEW."mobile_phone"), 'date_of_birth', json_array(NULL, NEW."date_of_birth"), 'is_member', json_array(NULL, NEW."is_member"), 'member_since', json_array(NULL, NEW."member_since"), 'member_until', json_array(NULL, NEW."member_until"), 'member_type_id', json_array(NULL, NEW."member_type_id"), 'membership_status_id', json_array(NULL, NEW."membership_status_id"), 'hsvrm_nr', json_array(NULL, NEW."hsvrm_nr"), 'is_vorstand', json_array(NULL, NEW."is_vorstand"), 'is_trainer', json_array(NULL, NEW."is_trainer"), 'has_gdpr', json_array(NULL, NEW."has_gdpr"), 'has_insurance', json_array(NULL, NEW."has_insurance"), 'comments', json_array(NULL, NEW."comments"), 'erased_on', json_array(NULL, NEW."erased_on"), 'retained_until', json_array(NULL, NEW."retained_until"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_people_update;
--> statement-breakpoint
CREATE TRIGGER history_people_update AFTER UPDATE ON people WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."salutation" IS NOT NEW."salutation" OR OLD."title" IS NOT NEW."title" OR OLD."first_name" IS NOT NEW."first_name" OR OLD."last_name" IS NOT NEW."last_name" OR OLD."street_number" IS NOT NEW."street_number" OR OLD."zip" IS NOT NEW."zip" OR OLD."city" IS NOT NEW."city" OR OLD."email" IS NOT NEW."email" OR OLD."home_phone" IS NOT NEW."home_phone" OR OLD."mobile_phone" IS NOT NEW."mobile_phone" OR OLD."date_of_birth" IS NOT NEW."date_of_birth" OR OLD."is_member" IS NOT NEW."is_member" OR OLD."member_since" IS NOT NEW."member_since" OR OLD."member_until" IS NOT NEW."member_until" OR OLD."member_type_id" IS NOT NEW."member_type_id" OR OLD."membership_status_id" IS NOT NEW."membership_status_id" OR OLD."hsvrm_nr" IS NOT NEW."hsvrm_nr" OR OLD."is_vorstand" IS NOT NEW."is_vorstand" OR OLD."is_trainer" IS NOT NEW."is_trainer" OR OLD."has_gdpr" IS NOT NEW."has_gdpr" OR OLD."has_insurance" IS NOT NEW."has_insurance" OR OLD."comments" IS NOT NEW."comments" OR OLD."erased_on" IS NOT NEW."erased_on" OR OLD."retained_until" IS NOT NEW."retained_until" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('people', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'salutation', CASE WHEN OLD."salutation" IS NOT NEW."salutation" THEN json_array(OLD."salutation", NEW."salutation") END , 'title', CASE WHEN OLD."title" IS NOT NEW."title" THEN json_array(OLD."title", NEW."title") END , 'first_name', CASE WHEN OLD."first_name" IS NOT NEW."first_name" THEN json_array(OLD."first_name", NEW."first_name") END , 'last_name', CASE WHEN OLD."last_name" IS NOT NEW."last_name" THEN json_array(OLD."last_name", NEW."last_name") END , 'street_number', CASE WHEN OLD."street_number" IS NOT NEW."street_number" THEN json_array(OLD."street_number", NEW."street_number") END , 'zip', CASE WHEN OLD."zip" IS NOT NEW."zip" THEN json_array(OLD."zip", NEW."zip") END , 'city', CASE WHEN OLD."city" IS NOT NEW."city" THEN json_array(OLD."city", NEW."city") END , 'email', CASE WHEN OLD."email" IS NOT NEW."email" THEN json_array(OLD."email", NEW."email") END , 'home_phone', CASE WHEN OLD."home_phone" IS NOT NEW."home_phone" THEN json_array(OLD."home_phone", NEW."home_phone") END , 'mobile_phone', CASE WHEN OLD."mobile_phone" IS NOT NEW."mobile_phone" THEN json_array(OLD."mobile_phone", NEW."mobile_phone") END , 'date_of_birth', CASE WHEN OLD."date_of_birth" IS NOT NEW."date_of_birth" THEN json_array(OLD."date_of_birth", NEW."date_of_birth") END , 'is_member', CASE WHEN OLD."is_member" IS NOT NEW."is_member" THEN json_array(OLD."is_member", NEW."is_member") END , 'member_since', CASE WHEN OLD."member_since" IS NOT NEW."member_since" THEN json_array(OLD."member_since", NEW."member_since") END , 'member_until', CASE WHEN OLD."member_until" IS NOT NEW."member_until" THEN json_array(OLD."member_until", NEW."member_until") END , 'member_type_id', CASE WHEN OLD."member_type_id" IS NOT NEW."member_type_id" THEN json_array(OLD."member_type_id", NEW."member_type_id") END , 'membership_status_id', CASE WHEN OLD."membership_status_id" IS NOT NEW."membership_status_id" THEN json_array(OLD."membership_status_id", NEW."membership_status_id") END , 'hsvrm_nr', CASE WHEN OLD."hsvrm_nr" IS NOT NEW."hsvrm_nr" THEN json_array(OLD."hsvrm_nr", NEW."hsvrm_nr") END , 'is_vorstand', CASE WHEN OLD."is_vorstand" IS NOT NEW."is_vorstand" THEN json_array(OLD."is_vorstand", NEW."is_vorstand") END , 'is_trainer', CASE WHEN OLD."is_trainer" IS NOT NEW."is_trainer" THEN json_array(OLD."is_trainer", NEW."is_trainer") END , 'has_gdpr', CASE WHEN OLD."has_gdpr" IS NOT NEW."has_gdpr" THEN json_array(OLD."has_gdpr", NEW."has_gdpr") END , 'has_insurance', CASE WHEN OLD."has_insurance" IS NOT NEW."has_insurance" THEN json_array(OLD."has_insurance", NEW."has_insurance") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'erased_on', CASE WHEN OLD."erased_on" IS NOT NEW."erased_on" THEN json_array(OLD."erased_on", NEW."erased_on") END , 'retained_until', CASE WHEN OLD."retained_until" IS NOT NEW."retained_until" THEN json_array(OLD."retained_until", NEW."retained_until") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_people_delete;
--> statement-breakpoint
CREATE TRIGGER history_people_delete AFTER DELETE ON people WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('people', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'salutation', json_array(OLD."salutation", NULL), 'title', json_array(OLD."title", NULL), 'first_name', json_array(OLD."first_name", NULL), 'last_name', json_array(OLD."last_name", NULL), 'street_number', json_array(OLD."street_number", NULL), 'zip', json_array(OLD."zip", NULL), 'city', json_array(OLD."city", NULL), 'email', json_array(OLD."email", NULL), 'home_phone', json_array(OLD."home_phone", NULL), 'mobile_phone', json_array(OLD."mobile_phone", NULL), 'date_of_birth', json_array(OLD."date_of_birth", NULL), 'is_member', json_array(OLD."is_member", NULL), 'member_since', json_array(OLD."member_since", NULL), 'member_until', json_array(OLD."member_until", NULL), 'member_type_id', json_array(OLD."member_type_id", NULL), 'membership_status_id', json_array(OLD."membership_status_id", NULL), 'hsvrm_nr', json_array(OLD."hsvrm_nr", NULL), 'is_vorstand', json_array(OLD."is_vorstand", NULL), 'is_trainer', json_array(OLD."is_trainer", NULL), 'has_gdpr', json_array(OLD."has_gdpr", NULL), 'has_insurance', json_array(OLD."has_insurance", NULL), 'comments', json_array(OLD."comments", NULL), 'erased_on', json_array(OLD."erased_on", NULL), 'retained_until', json_array(OLD."retained_until", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_dogs_insert;
--> statement-breakpoint
CREATE TRIGGER history_dogs_insert AFTER INSERT ON dogs WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('dogs', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'owner_id', json_array(NULL, NEW."owner_id"), 'common_name', json_array(NULL, NEW."common_name"), 'breed', json_array(NULL, NEW."breed"), 'gender', json_array(NULL, NEW."gender"), 'date_of_birth', json_array(NULL, NEW."date_of_birth"), 'rabies_valid_until', json_array(NULL, NEW."rabies_valid_until"), 'chip_nr', json_array(NULL, NEW."chip_nr"), 'zucht_buch_nr', json_array(NULL, NEW."zucht_buch_nr"), 'comments', json_array(NULL, NEW."comments"), 'archived', json_array(NULL, NEW."archived"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_dogs_update;
--> statement-breakpoint
CREATE TRIGGER history_dogs_update AFTER UPDATE ON dogs WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."owner_id" IS NOT NEW."owner_id" OR OLD."common_name" IS NOT NEW."common_name" OR OLD."breed" IS NOT NEW."breed" OR OLD."gender" IS NOT NEW."gender" OR OLD."date_of_birth" IS NOT NEW."date_of_birth" OR OLD."rabies_valid_until" IS NOT NEW."rabies_valid_until" OR OLD."chip_nr" IS NOT NEW."chip_nr" OR OLD."zucht_buch_nr" IS NOT NEW."zucht_buch_nr" OR OLD."comments" IS NOT NEW."comments" OR OLD."archived" IS NOT NEW."archived" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('dogs', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'owner_id', CASE WHEN OLD."owner_id" IS NOT NEW."owner_id" THEN json_array(OLD."owner_id", NEW."owner_id") END , 'common_name', CASE WHEN OLD."common_name" IS NOT NEW."common_name" THEN json_array(OLD."common_name", NEW."common_name") END , 'breed', CASE WHEN OLD."breed" IS NOT NEW."breed" THEN json_array(OLD."breed", NEW."breed") END , 'gender', CASE WHEN OLD."gender" IS NOT NEW."gender" THEN json_array(OLD."gender", NEW."gender") END , 'date_of_birth', CASE WHEN OLD."date_of_birth" IS NOT NEW."date_of_birth" THEN json_array(OLD."date_of_birth", NEW."date_of_birth") END , 'rabies_valid_until', CASE WHEN OLD."rabies_valid_until" IS NOT NEW."rabies_valid_until" THEN json_array(OLD."rabies_valid_until", NEW."rabies_valid_until") END , 'chip_nr', CASE WHEN OLD."chip_nr" IS NOT NEW."chip_nr" THEN json_array(OLD."chip_nr", NEW."chip_nr") END , 'zucht_buch_nr', CASE WHEN OLD."zucht_buch_nr" IS NOT NEW."zucht_buch_nr" THEN json_array(OLD."zucht_buch_nr", NEW."zucht_buch_nr") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'archived', CASE WHEN OLD."archived" IS NOT NEW."archived" THEN json_array(OLD."archived", NEW."archived") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_dogs_delete;
--> statement-breakpoint
CREATE TRIGGER history_dogs_delete AFTER DELETE ON dogs WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('dogs', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'owner_id', json_array(OLD."owner_id", NULL), 'common_name', json_array(OLD."common_name", NULL), 'breed', json_array(OLD."breed", NULL), 'gender', json_array(OLD."gender", NULL), 'date_of_birth', json_array(OLD."date_of_birth", NULL), 'rabies_valid_until', json_array(OLD."rabies_valid_until", NULL), 'chip_nr', json_array(OLD."chip_nr", NULL), 'zucht_buch_nr', json_array(OLD."zucht_buch_nr", NULL), 'comments', json_array(OLD."comments", NULL), 'archived', json_array(OLD."archived", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_locations_insert;
--> statement-breakpoint
CREATE TRIGGER history_locations_insert AFTER INSERT ON locations WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('locations', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'name', json_array(NULL, NEW."name"), 'street_number', json_array(NULL, NEW."street_number"), 'zip', json_array(NULL, NEW."zip"), 'city', json_array(NULL, NEW."city"), 'comments', json_array(NULL, NEW."comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_locations_update;
--> statement-breakpoint
CREATE TRIGGER history_locations_update AFTER UPDATE ON locations WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."name" IS NOT NEW."name" OR OLD."street_number" IS NOT NEW."street_number" OR OLD."zip" IS NOT NEW."zip" OR OLD."city" IS NOT NEW."city" OR OLD."comments" IS NOT NEW."comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('locations', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'name', CASE WHEN OLD."name" IS NOT NEW."name" THEN json_array(OLD."name", NEW."name") END , 'street_number', CASE WHEN OLD."street_number" IS NOT NEW."street_number" THEN json_array(OLD."street_number", NEW."street_number") END , 'zip', CASE WHEN OLD."zip" IS NOT NEW."zip" THEN json_array(OLD."zip", NEW."zip") END , 'city', CASE WHEN OLD."city" IS NOT NEW."city" THEN json_array(OLD."city", NEW."city") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_locations_delete;
--> statement-breakpoint
CREATE TRIGGER history_locations_delete AFTER DELETE ON locations WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('locations', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'name', json_array(OLD."name", NULL), 'street_number', json_array(OLD."street_number", NULL), 'zip', json_array(OLD."zip", NULL), 'city', json_array(OLD."city", NULL), 'comments', json_array(OLD."comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_masters_insert;
--> statement-breakpoint
CREATE TRIGGER history_course_masters_insert AFTER INSERT ON course_masters WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_masters', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'name', json_array(NULL, NEW."name"), 'nr_of_sessions', json_array(NULL, NEW."nr_of_sessions"), 'max_dogs', json_array(NULL, NEW."max_dogs"), 'cost_full', json_array(NULL, NEW."cost_full"), 'cost_reduced1', json_array(NULL, NEW."cost_reduced1"), 'cost_reduced2', json_array(NULL, NEW."cost_reduced2"), 'comments', json_array(NULL, NEW."comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_masters_update;
--> statement-breakpoint
CREATE TRIGGER history_course_masters_update AFTER UPDATE ON course_masters WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."name" IS NOT NEW."name" OR OLD."nr_of_sessions" IS NOT NEW."nr_of_sessions" OR OLD."max_dogs" IS NOT NEW."max_dogs" OR OLD."cost_full" IS NOT NEW."cost_full" OR OLD."cost_reduced1" IS NOT NEW."cost_reduced1" OR OLD."cost_reduced2" IS NOT NEW."cost_reduced2" OR OLD."comments" IS NOT NEW."comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_masters', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'name', CASE WHEN OLD."name" IS NOT NEW."name" THEN json_array(OLD."name", NEW."name") END , 'nr_of_sessions', CASE WHEN OLD."nr_of_sessions" IS NOT NEW."nr_of_sessions" THEN json_array(OLD."nr_of_sessions", NEW."nr_of_sessions") END , 'max_dogs', CASE WHEN OLD."max_dogs" IS NOT NEW."max_dogs" THEN json_array(OLD."max_dogs", NEW."max_dogs") END , 'cost_full', CASE WHEN OLD."cost_full" IS NOT NEW."cost_full" THEN json_array(OLD."cost_full", NEW."cost_full") END , 'cost_reduced1', CASE WHEN OLD."cost_reduced1" IS NOT NEW."cost_reduced1" THEN json_array(OLD."cost_reduced1", NEW."cost_reduced1") END , 'cost_reduced2', CASE WHEN OLD."cost_reduced2" IS NOT NEW."cost_reduced2" THEN json_array(OLD."cost_reduced2", NEW."cost_reduced2") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_masters_delete;
--> statement-breakpoint
CREATE TRIGGER history_course_masters_delete AFTER DELETE ON course_masters WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_masters', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'name', json_array(OLD."name", NULL), 'nr_of_sessions', json_array(OLD."nr_of_sessions", NULL), 'max_dogs', json_array(OLD."max_dogs", NULL), 'cost_full', json_array(OLD."cost_full", NULL), 'cost_reduced1', json_array(OLD."cost_reduced1", NULL), 'cost_reduced2', json_array(OLD."cost_reduced2", NULL), 'comments', json_array(OLD."comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_courses_insert;
--> statement-breakpoint
CREATE TRIGGER history_courses_insert AFTER INSERT ON courses WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('courses', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'name', json_array(NULL, NEW."name"), 'start_year', json_array(NULL, NEW."start_year"), 'web_time_information', json_array(NULL, NEW."web_time_information"), 'trainer_id', json_array(NULL, NEW."trainer_id"), 'cotrainer_id', json_array(NULL, NEW."cotrainer_id"), 'start_date_time', json_array(NULL, NEW."start_date_time"), 'max_dogs', json_array(NULL, NEW."max_dogs"), 'nr_of_sessions', json_array(NULL, NEW."nr_of_sessions"), 'cost_full', json_array(NULL, NEW."cost_full"), 'cost_reduced1', json_array(NULL, NEW."cost_reduced1"), 'cost_reduced2', json_array(NULL, NEW."cost_reduced2"), 'status_code', json_array(NULL, NEW."status_code"), 'duration_model', json_array(NULL, NEW."duration_model"), 'pricing_model', json_array(NULL, NEW."pricing_model"), 'location_id', json_array(NULL, NEW."location_id"), 'course_master_id', json_array(NULL, NEW."course_master_id"), 'comments', json_array(NULL, NEW."comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_courses_update;
--> statement-breakpoint
CREATE TRIGGER history_courses_update AFTER UPDATE ON courses WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."name" IS NOT NEW."name" OR OLD."start_year" IS NOT NEW."start_year" OR OLD."web_time_information" IS NOT NEW."web_time_information" OR OLD."trainer_id" IS NOT NEW."trainer_id" OR OLD."cotrainer_id" IS NOT NEW."cotrainer_id" OR OLD."start_date_time" IS NOT NEW."start_date_time" OR OLD."max_dogs" IS NOT NEW."max_dogs" OR OLD."nr_of_sessions" IS NOT NEW."nr_of_sessions" OR OLD."cost_full" IS NOT NEW."cost_full" OR OLD."cost_reduced1" IS NOT NEW."cost_reduced1" OR OLD."cost_reduced2" IS NOT NEW."cost_reduced2" OR OLD."status_code" IS NOT NEW."status_code" OR OLD."duration_model" IS NOT NEW."duration_model" OR OLD."pricing_model" IS NOT NEW."pricing_model" OR OLD."location_id" IS NOT NEW."location_id" OR OLD."course_master_id" IS NOT NEW."course_master_id" OR OLD."comments" IS NOT NEW."comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('courses', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'name', CASE WHEN OLD."name" IS NOT NEW."name" THEN json_array(OLD."name", NEW."name") END , 'start_year', CASE WHEN OLD."start_year" IS NOT NEW."start_year" THEN json_array(OLD."start_year", NEW."start_year") END , 'web_time_information', CASE WHEN OLD."web_time_information" IS NOT NEW."web_time_information" THEN json_array(OLD."web_time_information", NEW."web_time_information") END , 'trainer_id', CASE WHEN OLD."trainer_id" IS NOT NEW."trainer_id" THEN json_array(OLD."trainer_id", NEW."trainer_id") END , 'cotrainer_id', CASE WHEN OLD."cotrainer_id" IS NOT NEW."cotrainer_id" THEN json_array(OLD."cotrainer_id", NEW."cotrainer_id") END , 'start_date_time', CASE WHEN OLD."start_date_time" IS NOT NEW."start_date_time" THEN json_array(OLD."start_date_time", NEW."start_date_time") END , 'max_dogs', CASE WHEN OLD."max_dogs" IS NOT NEW."max_dogs" THEN json_array(OLD."max_dogs", NEW."max_dogs") END , 'nr_of_sessions', CASE WHEN OLD."nr_of_sessions" IS NOT NEW."nr_of_sessions" THEN json_array(OLD."nr_of_sessions", NEW."nr_of_sessions") END , 'cost_full', CASE WHEN OLD."cost_full" IS NOT NEW."cost_full" THEN json_array(OLD."cost_full", NEW."cost_full") END , 'cost_reduced1', CASE WHEN OLD."cost_reduced1" IS NOT NEW."cost_reduced1" THEN json_array(OLD."cost_reduced1", NEW."cost_reduced1") END , 'cost_reduced2', CASE WHEN OLD."cost_reduced2" IS NOT NEW."cost_reduced2" THEN json_array(OLD."cost_reduced2", NEW."cost_reduced2") END , 'status_code', CASE WHEN OLD."status_code" IS NOT NEW."status_code" THEN json_array(OLD."status_code", NEW."status_code") END , 'duration_model', CASE WHEN OLD."duration_model" IS NOT NEW."duration_model" THEN json_array(OLD."duration_model", NEW."duration_model") END , 'pricing_model', CASE WHEN OLD."pricing_model" IS NOT NEW."pricing_model" THEN json_array(OLD."pricing_model", NEW."pricing_model") END , 'location_id', CASE WHEN OLD."location_id" IS NOT NEW."location_id" THEN json_array(OLD."location_id", NEW."location_id") END , 'course_master_id', CASE WHEN OLD."course_master_id" IS NOT NEW."course_master_id" THEN json_array(OLD."course_master_id", NEW."course_master_id") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_courses_delete;
--> statement-breakpoint
CREATE TRIGGER history_courses_delete AFTER DELETE ON courses WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('courses', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'name', json_array(OLD."name", NULL), 'start_year', json_array(OLD."start_year", NULL), 'web_time_information', json_array(OLD."web_time_information", NULL), 'trainer_id', json_array(OLD."trainer_id", NULL), 'cotrainer_id', json_array(OLD."cotrainer_id", NULL), 'start_date_time', json_array(OLD."start_date_time", NULL), 'max_dogs', json_array(OLD."max_dogs", NULL), 'nr_of_sessions', json_array(OLD."nr_of_sessions", NULL), 'cost_full', json_array(OLD."cost_full", NULL), 'cost_reduced1', json_array(OLD."cost_reduced1", NULL), 'cost_reduced2', json_array(OLD."cost_reduced2", NULL), 'status_code', json_array(OLD."status_code", NULL), 'duration_model', json_array(OLD."duration_model", NULL), 'pricing_model', json_array(OLD."pricing_model", NULL), 'location_id', json_array(OLD."location_id", NULL), 'course_master_id', json_array(OLD."course_master_id", NULL), 'comments', json_array(OLD."comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_memberships_insert;
--> statement-breakpoint
CREATE TRIGGER history_course_memberships_insert AFTER INSERT ON course_memberships WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_memberships', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'course_id', json_array(NULL, NEW."course_id"), 'person_id', json_array(NULL, NEW."person_id"), 'dog_id', json_array(NULL, NEW."dog_id"), 'status_id', json_array(NULL, NEW."status_id"), 'fee_id', json_array(NULL, NEW."fee_id"), 'price', json_array(NULL, NEW."price"), 'amount', json_array(NULL, NEW."amount"), 'is_paid', json_array(NULL, NEW."is_paid"), 'rabies_valid_until', json_array(NULL, NEW."rabies_valid_until"), 'has_gdpr', json_array(NULL, NEW."has_gdpr"), 'has_insurance', json_array(NULL, NEW."has_insurance"), 'comments', json_array(NULL, NEW."comments"), 'person_comments', json_array(NULL, NEW."person_comments"), 'dog_comments', json_array(NULL, NEW."dog_comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_memberships_update;
--> statement-breakpoint
CREATE TRIGGER history_course_memberships_update AFTER UPDATE ON course_memberships WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."course_id" IS NOT NEW."course_id" OR OLD."person_id" IS NOT NEW."person_id" OR OLD."dog_id" IS NOT NEW."dog_id" OR OLD."status_id" IS NOT NEW."status_id" OR OLD."fee_id" IS NOT NEW."fee_id" OR OLD."price" IS NOT NEW."price" OR OLD."amount" IS NOT NEW."amount" OR OLD."is_paid" IS NOT NEW."is_paid" OR OLD."rabies_valid_until" IS NOT NEW."rabies_valid_until" OR OLD."has_gdpr" IS NOT NEW."has_gdpr" OR OLD."has_insurance" IS NOT NEW."has_insurance" OR OLD."comments" IS NOT NEW."comments" OR OLD."person_comments" IS NOT NEW."person_comments" OR OLD."dog_comments" IS NOT NEW."dog_comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_memberships', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'course_id', CASE WHEN OLD."course_id" IS NOT NEW."course_id" THEN json_array(OLD."course_id", NEW."course_id") END , 'person_id', CASE WHEN OLD."person_id" IS NOT NEW."person_id" THEN json_array(OLD."person_id", NEW."person_id") END , 'dog_id', CASE WHEN OLD."dog_id" IS NOT NEW."dog_id" THEN json_array(OLD."dog_id", NEW."dog_id") END , 'status_id', CASE WHEN OLD."status_id" IS NOT NEW."status_id" THEN json_array(OLD."status_id", NEW."status_id") END , 'fee_id', CASE WHEN OLD."fee_id" IS NOT NEW."fee_id" THEN json_array(OLD."fee_id", NEW."fee_id") END , 'price', CASE WHEN OLD."price" IS NOT NEW."price" THEN json_array(OLD."price", NEW."price") END , 'amount', CASE WHEN OLD."amount" IS NOT NEW."amount" THEN json_array(OLD."amount", NEW."amount") END , 'is_paid', CASE WHEN OLD."is_paid" IS NOT NEW."is_paid" THEN json_array(OLD."is_paid", NEW."is_paid") END , 'rabies_valid_until', CASE WHEN OLD."rabies_valid_until" IS NOT NEW."rabies_valid_until" THEN json_array(OLD."rabies_valid_until", NEW."rabies_valid_until") END , 'has_gdpr', CASE WHEN OLD."has_gdpr" IS NOT NEW."has_gdpr" THEN json_array(OLD."has_gdpr", NEW."has_gdpr") END , 'has_insurance', CASE WHEN OLD."has_insurance" IS NOT NEW."has_insurance" THEN json_array(OLD."has_insurance", NEW."has_insurance") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'person_comments', CASE WHEN OLD."person_comments" IS NOT NEW."person_comments" THEN json_array(OLD."person_comments", NEW."person_comments") END , 'dog_comments', CASE WHEN OLD."dog_comments" IS NOT NEW."dog_comments" THEN json_array(OLD."dog_comments", NEW."dog_comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_memberships_delete;
--> statement-breakpoint
CREATE TRIGGER history_course_memberships_delete AFTER DELETE ON course_memberships WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_memberships', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'course_id', json_array(OLD."course_id", NULL), 'person_id', json_array(OLD."person_id", NULL), 'dog_id', json_array(OLD."dog_id", NULL), 'status_id', json_array(OLD."status_id", NULL), 'fee_id', json_array(OLD."fee_id", NULL), 'price', json_array(OLD."price", NULL), 'amount', json_array(OLD."amount", NULL), 'is_paid', json_array(OLD."is_paid", NULL), 'rabies_valid_until', json_array(OLD."rabies_valid_until", NULL), 'has_gdpr', json_array(OLD."has_gdpr", NULL), 'has_insurance', json_array(OLD."has_insurance", NULL), 'comments', json_array(OLD."comments", NULL), 'person_comments', json_array(OLD."person_comments", NULL), 'dog_comments', json_array(OLD."dog_comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_dates_insert;
--> statement-breakpoint
CREATE TRIGGER history_course_dates_insert AFTER INSERT ON course_dates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_dates', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'course_id', json_array(NULL, NEW."course_id"), 'start_date_time', json_array(NULL, NEW."start_date_time"), 'end_date_time', json_array(NULL, NEW."end_date_time"), 'location_id', json_array(NULL, NEW."location_id"), 'is_all_day', json_array(NULL, NEW."is_all_day"), 'comments', json_array(NULL, NEW."comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_dates_update;
--> statement-breakpoint
CREATE TRIGGER history_course_dates_update AFTER UPDATE ON course_dates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."course_id" IS NOT NEW."course_id" OR OLD."start_date_time" IS NOT NEW."start_date_time" OR OLD."end_date_time" IS NOT NEW."end_date_time" OR OLD."location_id" IS NOT NEW."location_id" OR OLD."is_all_day" IS NOT NEW."is_all_day" OR OLD."comments" IS NOT NEW."comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_dates', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'course_id', CASE WHEN OLD."course_id" IS NOT NEW."course_id" THEN json_array(OLD."course_id", NEW."course_id") END , 'start_date_time', CASE WHEN OLD."start_date_time" IS NOT NEW."start_date_time" THEN json_array(OLD."start_date_time", NEW."start_date_time") END , 'end_date_time', CASE WHEN OLD."end_date_time" IS NOT NEW."end_date_time" THEN json_array(OLD."end_date_time", NEW."end_date_time") END , 'location_id', CASE WHEN OLD."location_id" IS NOT NEW."location_id" THEN json_array(OLD."location_id", NEW."location_id") END , 'is_all_day', CASE WHEN OLD."is_all_day" IS NOT NEW."is_all_day" THEN json_array(OLD."is_all_day", NEW."is_all_day") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_course_dates_delete;
--> statement-breakpoint
CREATE TRIGGER history_course_dates_delete AFTER DELETE ON course_dates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('course_dates', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'course_id', json_array(OLD."course_id", NULL), 'start_date_time', json_array(OLD."start_date_time", NULL), 'end_date_time', json_array(OLD."end_date_time", NULL), 'location_id', json_array(OLD."location_id", NULL), 'is_all_day', json_array(OLD."is_all_day", NULL), 'comments', json_array(OLD."comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_attendances_insert;
--> statement-breakpoint
CREATE TRIGGER history_attendances_insert AFTER INSERT ON attendances WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('attendances', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'course_date_id', json_array(NULL, NEW."course_date_id"), 'course_membership_id', json_array(NULL, NEW."course_membership_id"), 'present', json_array(NULL, NEW."present"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_attendances_update;
--> statement-breakpoint
CREATE TRIGGER history_attendances_update AFTER UPDATE ON attendances WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."course_date_id" IS NOT NEW."course_date_id" OR OLD."course_membership_id" IS NOT NEW."course_membership_id" OR OLD."present" IS NOT NEW."present" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('attendances', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'course_date_id', CASE WHEN OLD."course_date_id" IS NOT NEW."course_date_id" THEN json_array(OLD."course_date_id", NEW."course_date_id") END , 'course_membership_id', CASE WHEN OLD."course_membership_id" IS NOT NEW."course_membership_id" THEN json_array(OLD."course_membership_id", NEW."course_membership_id") END , 'present', CASE WHEN OLD."present" IS NOT NEW."present" THEN json_array(OLD."present", NEW."present") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_attendances_delete;
--> statement-breakpoint
CREATE TRIGGER history_attendances_delete AFTER DELETE ON attendances WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('attendances', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'course_date_id', json_array(OLD."course_date_id", NULL), 'course_membership_id', json_array(OLD."course_membership_id", NULL), 'present', json_array(OLD."present", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_certification_masters_insert;
--> statement-breakpoint
CREATE TRIGGER history_certification_masters_insert AFTER INSERT ON certification_masters WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('certification_masters', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'name', json_array(NULL, NEW."name"), 'is_person_certification', json_array(NULL, NEW."is_person_certification"), 'is_dog_certification', json_array(NULL, NEW."is_dog_certification"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_certification_masters_update;
--> statement-breakpoint
CREATE TRIGGER history_certification_masters_update AFTER UPDATE ON certification_masters WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."name" IS NOT NEW."name" OR OLD."is_person_certification" IS NOT NEW."is_person_certification" OR OLD."is_dog_certification" IS NOT NEW."is_dog_certification" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('certification_masters', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'name', CASE WHEN OLD."name" IS NOT NEW."name" THEN json_array(OLD."name", NEW."name") END , 'is_person_certification', CASE WHEN OLD."is_person_certification" IS NOT NEW."is_person_certification" THEN json_array(OLD."is_person_certification", NEW."is_person_certification") END , 'is_dog_certification', CASE WHEN OLD."is_dog_certification" IS NOT NEW."is_dog_certification" THEN json_array(OLD."is_dog_certification", NEW."is_dog_certification") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_certification_masters_delete;
--> statement-breakpoint
CREATE TRIGGER history_certification_masters_delete AFTER DELETE ON certification_masters WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('certification_masters', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'name', json_array(OLD."name", NULL), 'is_person_certification', json_array(OLD."is_person_certification", NULL), 'is_dog_certification', json_array(OLD."is_dog_certification", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_certifications_insert;
--> statement-breakpoint
CREATE TRIGGER history_certifications_insert AFTER INSERT ON certifications WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('certifications', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'person_id', json_array(NULL, NEW."person_id"), 'dog_id', json_array(NULL, NEW."dog_id"), 'certification_master_id', json_array(NULL, NEW."certification_master_id"), 'date', json_array(NULL, NEW."date"), 'comments', json_array(NULL, NEW."comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_certifications_update;
--> statement-breakpoint
CREATE TRIGGER history_certifications_update AFTER UPDATE ON certifications WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."person_id" IS NOT NEW."person_id" OR OLD."dog_id" IS NOT NEW."dog_id" OR OLD."certification_master_id" IS NOT NEW."certification_master_id" OR OLD."date" IS NOT NEW."date" OR OLD."comments" IS NOT NEW."comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('certifications', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'person_id', CASE WHEN OLD."person_id" IS NOT NEW."person_id" THEN json_array(OLD."person_id", NEW."person_id") END , 'dog_id', CASE WHEN OLD."dog_id" IS NOT NEW."dog_id" THEN json_array(OLD."dog_id", NEW."dog_id") END , 'certification_master_id', CASE WHEN OLD."certification_master_id" IS NOT NEW."certification_master_id" THEN json_array(OLD."certification_master_id", NEW."certification_master_id") END , 'date', CASE WHEN OLD."date" IS NOT NEW."date" THEN json_array(OLD."date", NEW."date") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_certifications_delete;
--> statement-breakpoint
CREATE TRIGGER history_certifications_delete AFTER DELETE ON certifications WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('certifications', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'person_id', json_array(OLD."person_id", NULL), 'dog_id', json_array(OLD."dog_id", NULL), 'certification_master_id', json_array(OLD."certification_master_id", NULL), 'date', json_array(OLD."date", NULL), 'comments', json_array(OLD."comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_fees_insert;
--> statement-breakpoint
CREATE TRIGGER history_fees_insert AFTER INSERT ON fees WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('fees', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'person_id', json_array(NULL, NEW."person_id"), 'date', json_array(NULL, NEW."date"), 'due_date', json_array(NULL, NEW."due_date"), 'text', json_array(NULL, NEW."text"), 'amount', json_array(NULL, NEW."amount"), 'open_amount', json_array(NULL, NEW."open_amount"), 'comments', json_array(NULL, NEW."comments"), 'payment_comments', json_array(NULL, NEW."payment_comments"), 'send_invoice', json_array(NULL, NEW."send_invoice"), 'is_invoiced', json_array(NULL, NEW."is_invoiced"), 'payment_reference', json_array(NULL, NEW."payment_reference"), 'course_membership_id', json_array(NULL, NEW."course_membership_id"), 'kind', json_array(NULL, NEW."kind"), 'period_year', json_array(NULL, NEW."period_year"), 'job_id', json_array(NULL, NEW."job_id"), 'payment_link_id', json_array(NULL, NEW."payment_link_id"), 'payment_link_url', json_array(NULL, NEW."payment_link_url"), 'payment_link_amount', json_array(NULL, NEW."payment_link_amount"), 'reminded_invoice_id', json_array(NULL, NEW."reminded_invoice_id"), 'reminded_fee_id', json_array(NULL, NEW."reminded_fee_id"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_fees_update;
--> statement-breakpoint
CREATE TRIGGER history_fees_update AFTER UPDATE ON fees WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."person_id" IS NOT NEW."person_id" OR OLD."date" IS NOT NEW."date" OR OLD."due_date" IS NOT NEW."due_date" OR OLD."text" IS NOT NEW."text" OR OLD."amount" IS NOT NEW."amount" OR OLD."open_amount" IS NOT NEW."open_amount" OR OLD."comments" IS NOT NEW."comments" OR OLD."payment_comments" IS NOT NEW."payment_comments" OR OLD."send_invoice" IS NOT NEW."send_invoice" OR OLD."is_invoiced" IS NOT NEW."is_invoiced" OR OLD."payment_reference" IS NOT NEW."payment_reference" OR OLD."course_membership_id" IS NOT NEW."course_membership_id" OR OLD."kind" IS NOT NEW."kind" OR OLD."period_year" IS NOT NEW."period_year" OR OLD."job_id" IS NOT NEW."job_id" OR OLD."payment_link_id" IS NOT NEW."payment_link_id" OR OLD."payment_link_url" IS NOT NEW."payment_link_url" OR OLD."payment_link_amount" IS NOT NEW."payment_link_amount" OR OLD."reminded_invoice_id" IS NOT NEW."reminded_invoice_id" OR OLD."reminded_fee_id" IS NOT NEW."reminded_fee_id" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('fees', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'person_id', CASE WHEN OLD."person_id" IS NOT NEW."person_id" THEN json_array(OLD."person_id", NEW."person_id") END , 'date', CASE WHEN OLD."date" IS NOT NEW."date" THEN json_array(OLD."date", NEW."date") END , 'due_date', CASE WHEN OLD."due_date" IS NOT NEW."due_date" THEN json_array(OLD."due_date", NEW."due_date") END , 'text', CASE WHEN OLD."text" IS NOT NEW."text" THEN json_array(OLD."text", NEW."text") END , 'amount', CASE WHEN OLD."amount" IS NOT NEW."amount" THEN json_array(OLD."amount", NEW."amount") END , 'open_amount', CASE WHEN OLD."open_amount" IS NOT NEW."open_amount" THEN json_array(OLD."open_amount", NEW."open_amount") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'payment_comments', CASE WHEN OLD."payment_comments" IS NOT NEW."payment_comments" THEN json_array(OLD."payment_comments", NEW."payment_comments") END , 'send_invoice', CASE WHEN OLD."send_invoice" IS NOT NEW."send_invoice" THEN json_array(OLD."send_invoice", NEW."send_invoice") END , 'is_invoiced', CASE WHEN OLD."is_invoiced" IS NOT NEW."is_invoiced" THEN json_array(OLD."is_invoiced", NEW."is_invoiced") END , 'payment_reference', CASE WHEN OLD."payment_reference" IS NOT NEW."payment_reference" THEN json_array(OLD."payment_reference", NEW."payment_reference") END , 'course_membership_id', CASE WHEN OLD."course_membership_id" IS NOT NEW."course_membership_id" THEN json_array(OLD."course_membership_id", NEW."course_membership_id") END , 'kind', CASE WHEN OLD."kind" IS NOT NEW."kind" THEN json_array(OLD."kind", NEW."kind") END , 'period_year', CASE WHEN OLD."period_year" IS NOT NEW."period_year" THEN json_array(OLD."period_year", NEW."period_year") END , 'job_id', CASE WHEN OLD."job_id" IS NOT NEW."job_id" THEN json_array(OLD."job_id", NEW."job_id") END , 'payment_link_id', CASE WHEN OLD."payment_link_id" IS NOT NEW."payment_link_id" THEN json_array(OLD."payment_link_id", NEW."payment_link_id") END , 'payment_link_url', CASE WHEN OLD."payment_link_url" IS NOT NEW."payment_link_url" THEN json_array(OLD."payment_link_url", NEW."payment_link_url") END , 'payment_link_amount', CASE WHEN OLD."payment_link_amount" IS NOT NEW."payment_link_amount" THEN json_array(OLD."payment_link_amount", NEW."payment_link_amount") END , 'reminded_invoice_id', CASE WHEN OLD."reminded_invoice_id" IS NOT NEW."reminded_invoice_id" THEN json_array(OLD."reminded_invoice_id", NEW."reminded_invoice_id") END , 'reminded_fee_id', CASE WHEN OLD."reminded_fee_id" IS NOT NEW."reminded_fee_id" THEN json_array(OLD."reminded_fee_id", NEW."reminded_fee_id") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_fees_delete;
--> statement-breakpoint
CREATE TRIGGER history_fees_delete AFTER DELETE ON fees WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('fees', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'person_id', json_array(OLD."person_id", NULL), 'date', json_array(OLD."date", NULL), 'due_date', json_array(OLD."due_date", NULL), 'text', json_array(OLD."text", NULL), 'amount', json_array(OLD."amount", NULL), 'open_amount', json_array(OLD."open_amount", NULL), 'comments', json_array(OLD."comments", NULL), 'payment_comments', json_array(OLD."payment_comments", NULL), 'send_invoice', json_array(OLD."send_invoice", NULL), 'is_invoiced', json_array(OLD."is_invoiced", NULL), 'payment_reference', json_array(OLD."payment_reference", NULL), 'course_membership_id', json_array(OLD."course_membership_id", NULL), 'kind', json_array(OLD."kind", NULL), 'period_year', json_array(OLD."period_year", NULL), 'job_id', json_array(OLD."job_id", NULL), 'payment_link_id', json_array(OLD."payment_link_id", NULL), 'payment_link_url', json_array(OLD."payment_link_url", NULL), 'payment_link_amount', json_array(OLD."payment_link_amount", NULL), 'reminded_invoice_id', json_array(OLD."reminded_invoice_id", NULL), 'reminded_fee_id', json_array(OLD."reminded_fee_id", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_invoice_headers_insert;
--> statement-breakpoint
CREATE TRIGGER history_invoice_headers_insert AFTER INSERT ON invoice_headers WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('invoice_headers', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'person_id', json_array(NULL, NEW."person_id"), 'invoice_number', json_array(NULL, NEW."invoice_number"), 'date', json_array(NULL, NEW."date"), 'sent_date', json_array(NULL, NEW."sent_date"), 'due_date', json_array(NULL, NEW."due_date"), 'amount', json_array(NULL, NEW."amount"), 'open_amount', json_array(NULL, NEW."open_amount"), 'comments', json_array(NULL, NEW."comments"), 'payment_comments', json_array(NULL, NEW."payment_comments"), 'pdf_file_path', json_array(NULL, NEW."pdf_file_path"), 'job_id', json_array(NULL, NEW."job_id"), 'issued_salutation', json_array(NULL, NEW."issued_salutation"), 'issued_title', json_array(NULL, NEW."issued_title"), 'issued_first_name', json_array(NULL, NEW."issued_first_name"), 'issued_last_name', json_array(NULL, NEW."issued_last_name"), 'issued_street_number', json_array(NULL, NEW."issued_street_number"), 'issued_zip', json_array(NULL, NEW."issued_zip"), 'issued_city', json_array(NULL, NEW."issued_city"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_invoice_headers_update;
--> statement-breakpoint
CREATE TRIGGER history_invoice_headers_update AFTER UPDATE ON invoice_headers WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."person_id" IS NOT NEW."person_id" OR OLD."invoice_number" IS NOT NEW."invoice_number" OR OLD."date" IS NOT NEW."date" OR OLD."sent_date" IS NOT NEW."sent_date" OR OLD."due_date" IS NOT NEW."due_date" OR OLD."amount" IS NOT NEW."amount" OR OLD."open_amount" IS NOT NEW."open_amount" OR OLD."comments" IS NOT NEW."comments" OR OLD."payment_comments" IS NOT NEW."payment_comments" OR OLD."pdf_file_path" IS NOT NEW."pdf_file_path" OR OLD."job_id" IS NOT NEW."job_id" OR OLD."issued_salutation" IS NOT NEW."issued_salutation" OR OLD."issued_title" IS NOT NEW."issued_title" OR OLD."issued_first_name" IS NOT NEW."issued_first_name" OR OLD."issued_last_name" IS NOT NEW."issued_last_name" OR OLD."issued_street_number" IS NOT NEW."issued_street_number" OR OLD."issued_zip" IS NOT NEW."issued_zip" OR OLD."issued_city" IS NOT NEW."issued_city" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('invoice_headers', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'person_id', CASE WHEN OLD."person_id" IS NOT NEW."person_id" THEN json_array(OLD."person_id", NEW."person_id") END , 'invoice_number', CASE WHEN OLD."invoice_number" IS NOT NEW."invoice_number" THEN json_array(OLD."invoice_number", NEW."invoice_number") END , 'date', CASE WHEN OLD."date" IS NOT NEW."date" THEN json_array(OLD."date", NEW."date") END , 'sent_date', CASE WHEN OLD."sent_date" IS NOT NEW."sent_date" THEN json_array(OLD."sent_date", NEW."sent_date") END , 'due_date', CASE WHEN OLD."due_date" IS NOT NEW."due_date" THEN json_array(OLD."due_date", NEW."due_date") END , 'amount', CASE WHEN OLD."amount" IS NOT NEW."amount" THEN json_array(OLD."amount", NEW."amount") END , 'open_amount', CASE WHEN OLD."open_amount" IS NOT NEW."open_amount" THEN json_array(OLD."open_amount", NEW."open_amount") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'payment_comments', CASE WHEN OLD."payment_comments" IS NOT NEW."payment_comments" THEN json_array(OLD."payment_comments", NEW."payment_comments") END , 'pdf_file_path', CASE WHEN OLD."pdf_file_path" IS NOT NEW."pdf_file_path" THEN json_array(OLD."pdf_file_path", NEW."pdf_file_path") END , 'job_id', CASE WHEN OLD."job_id" IS NOT NEW."job_id" THEN json_array(OLD."job_id", NEW."job_id") END , 'issued_salutation', CASE WHEN OLD."issued_salutation" IS NOT NEW."issued_salutation" THEN json_array(OLD."issued_salutation", NEW."issued_salutation") END , 'issued_title', CASE WHEN OLD."issued_title" IS NOT NEW."issued_title" THEN json_array(OLD."issued_title", NEW."issued_title") END , 'issued_first_name', CASE WHEN OLD."issued_first_name" IS NOT NEW."issued_first_name" THEN json_array(OLD."issued_first_name", NEW."issued_first_name") END , 'issued_last_name', CASE WHEN OLD."issued_last_name" IS NOT NEW."issued_last_name" THEN json_array(OLD."issued_last_name", NEW."issued_last_name") END , 'issued_street_number', CASE WHEN OLD."issued_street_number" IS NOT NEW."issued_street_number" THEN json_array(OLD."issued_street_number", NEW."issued_street_number") END , 'issued_zip', CASE WHEN OLD."issued_zip" IS NOT NEW."issued_zip" THEN json_array(OLD."issued_zip", NEW."issued_zip") END , 'issued_city', CASE WHEN OLD."issued_city" IS NOT NEW."issued_city" THEN json_array(OLD."issued_city", NEW."issued_city") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_invoice_headers_delete;
--> statement-breakpoint
CREATE TRIGGER history_invoice_headers_delete AFTER DELETE ON invoice_headers WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('invoice_headers', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'person_id', json_array(OLD."person_id", NULL), 'invoice_number', json_array(OLD."invoice_number", NULL), 'date', json_array(OLD."date", NULL), 'sent_date', json_array(OLD."sent_date", NULL), 'due_date', json_array(OLD."due_date", NULL), 'amount', json_array(OLD."amount", NULL), 'open_amount', json_array(OLD."open_amount", NULL), 'comments', json_array(OLD."comments", NULL), 'payment_comments', json_array(OLD."payment_comments", NULL), 'pdf_file_path', json_array(OLD."pdf_file_path", NULL), 'job_id', json_array(OLD."job_id", NULL), 'issued_salutation', json_array(OLD."issued_salutation", NULL), 'issued_title', json_array(OLD."issued_title", NULL), 'issued_first_name', json_array(OLD."issued_first_name", NULL), 'issued_last_name', json_array(OLD."issued_last_name", NULL), 'issued_street_number', json_array(OLD."issued_street_number", NULL), 'issued_zip', json_array(OLD."issued_zip", NULL), 'issued_city', json_array(OLD."issued_city", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_invoice_rows_insert;
--> statement-breakpoint
CREATE TRIGGER history_invoice_rows_insert AFTER INSERT ON invoice_rows WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('invoice_rows', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'invoice_id', json_array(NULL, NEW."invoice_id"), 'fee_id', json_array(NULL, NEW."fee_id"), 'line_number', json_array(NULL, NEW."line_number"), 'text', json_array(NULL, NEW."text"), 'amount', json_array(NULL, NEW."amount"), 'job_id', json_array(NULL, NEW."job_id"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_invoice_rows_update;
--> statement-breakpoint
CREATE TRIGGER history_invoice_rows_update AFTER UPDATE ON invoice_rows WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."invoice_id" IS NOT NEW."invoice_id" OR OLD."fee_id" IS NOT NEW."fee_id" OR OLD."line_number" IS NOT NEW."line_number" OR OLD."text" IS NOT NEW."text" OR OLD."amount" IS NOT NEW."amount" OR OLD."job_id" IS NOT NEW."job_id" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('invoice_rows', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'invoice_id', CASE WHEN OLD."invoice_id" IS NOT NEW."invoice_id" THEN json_array(OLD."invoice_id", NEW."invoice_id") END , 'fee_id', CASE WHEN OLD."fee_id" IS NOT NEW."fee_id" THEN json_array(OLD."fee_id", NEW."fee_id") END , 'line_number', CASE WHEN OLD."line_number" IS NOT NEW."line_number" THEN json_array(OLD."line_number", NEW."line_number") END , 'text', CASE WHEN OLD."text" IS NOT NEW."text" THEN json_array(OLD."text", NEW."text") END , 'amount', CASE WHEN OLD."amount" IS NOT NEW."amount" THEN json_array(OLD."amount", NEW."amount") END , 'job_id', CASE WHEN OLD."job_id" IS NOT NEW."job_id" THEN json_array(OLD."job_id", NEW."job_id") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_invoice_rows_delete;
--> statement-breakpoint
CREATE TRIGGER history_invoice_rows_delete AFTER DELETE ON invoice_rows WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('invoice_rows', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'invoice_id', json_array(OLD."invoice_id", NULL), 'fee_id', json_array(OLD."fee_id", NULL), 'line_number', json_array(OLD."line_number", NULL), 'text', json_array(OLD."text", NULL), 'amount', json_array(OLD."amount", NULL), 'job_id', json_array(OLD."job_id", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_templates_insert;
--> statement-breakpoint
CREATE TRIGGER history_templates_insert AFTER INSERT ON templates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('templates', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'name', json_array(NULL, NEW."name"), 'kind', json_array(NULL, NEW."kind"), 'subject', json_array(NULL, NEW."subject"), 'html', json_array(NULL, NEW."html"), 'text', json_array(NULL, NEW."text"), 'comments', json_array(NULL, NEW."comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_templates_update;
--> statement-breakpoint
CREATE TRIGGER history_templates_update AFTER UPDATE ON templates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."name" IS NOT NEW."name" OR OLD."kind" IS NOT NEW."kind" OR OLD."subject" IS NOT NEW."subject" OR OLD."html" IS NOT NEW."html" OR OLD."text" IS NOT NEW."text" OR OLD."comments" IS NOT NEW."comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('templates', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'name', CASE WHEN OLD."name" IS NOT NEW."name" THEN json_array(OLD."name", NEW."name") END , 'kind', CASE WHEN OLD."kind" IS NOT NEW."kind" THEN json_array(OLD."kind", NEW."kind") END , 'subject', CASE WHEN OLD."subject" IS NOT NEW."subject" THEN json_array(OLD."subject", NEW."subject") END , 'html', CASE WHEN OLD."html" IS NOT NEW."html" THEN json_array(OLD."html", NEW."html") END , 'text', CASE WHEN OLD."text" IS NOT NEW."text" THEN json_array(OLD."text", NEW."text") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_templates_delete;
--> statement-breakpoint
CREATE TRIGGER history_templates_delete AFTER DELETE ON templates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('templates', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'name', json_array(OLD."name", NULL), 'kind', json_array(OLD."kind", NULL), 'subject', json_array(OLD."subject", NULL), 'html', json_array(OLD."html", NULL), 'text', json_array(OLD."text", NULL), 'comments', json_array(OLD."comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_mailshots_insert;
--> statement-breakpoint
CREATE TRIGGER history_mailshots_insert AFTER INSERT ON mailshots WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('mailshots', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'name', json_array(NULL, NEW."name"), 'recipient_query', json_array(NULL, NEW."recipient_query"), 'template_name', json_array(NULL, NEW."template_name"), 'subject', json_array(NULL, NEW."subject"), 'cc', json_array(NULL, NEW."cc"), 'attach_invoice', json_array(NULL, NEW."attach_invoice"), 'attach_doc_path1', json_array(NULL, NEW."attach_doc_path1"), 'attach_doc_path2', json_array(NULL, NEW."attach_doc_path2"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_mailshots_update;
--> statement-breakpoint
CREATE TRIGGER history_mailshots_update AFTER UPDATE ON mailshots WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."name" IS NOT NEW."name" OR OLD."recipient_query" IS NOT NEW."recipient_query" OR OLD."template_name" IS NOT NEW."template_name" OR OLD."subject" IS NOT NEW."subject" OR OLD."cc" IS NOT NEW."cc" OR OLD."attach_invoice" IS NOT NEW."attach_invoice" OR OLD."attach_doc_path1" IS NOT NEW."attach_doc_path1" OR OLD."attach_doc_path2" IS NOT NEW."attach_doc_path2" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('mailshots', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'name', CASE WHEN OLD."name" IS NOT NEW."name" THEN json_array(OLD."name", NEW."name") END , 'recipient_query', CASE WHEN OLD."recipient_query" IS NOT NEW."recipient_query" THEN json_array(OLD."recipient_query", NEW."recipient_query") END , 'template_name', CASE WHEN OLD."template_name" IS NOT NEW."template_name" THEN json_array(OLD."template_name", NEW."template_name") END , 'subject', CASE WHEN OLD."subject" IS NOT NEW."subject" THEN json_array(OLD."subject", NEW."subject") END , 'cc', CASE WHEN OLD."cc" IS NOT NEW."cc" THEN json_array(OLD."cc", NEW."cc") END , 'attach_invoice', CASE WHEN OLD."attach_invoice" IS NOT NEW."attach_invoice" THEN json_array(OLD."attach_invoice", NEW."attach_invoice") END , 'attach_doc_path1', CASE WHEN OLD."attach_doc_path1" IS NOT NEW."attach_doc_path1" THEN json_array(OLD."attach_doc_path1", NEW."attach_doc_path1") END , 'attach_doc_path2', CASE WHEN OLD."attach_doc_path2" IS NOT NEW."attach_doc_path2" THEN json_array(OLD."attach_doc_path2", NEW."attach_doc_path2") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_mailshots_delete;
--> statement-breakpoint
CREATE TRIGGER history_mailshots_delete AFTER DELETE ON mailshots WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('mailshots', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'name', json_array(OLD."name", NULL), 'recipient_query', json_array(OLD."recipient_query", NULL), 'template_name', json_array(OLD."template_name", NULL), 'subject', json_array(OLD."subject", NULL), 'cc', json_array(OLD."cc", NULL), 'attach_invoice', json_array(OLD."attach_invoice", NULL), 'attach_doc_path1', json_array(OLD."attach_doc_path1", NULL), 'attach_doc_path2', json_array(OLD."attach_doc_path2", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_sepa_mandates_insert;
--> statement-breakpoint
CREATE TRIGGER history_sepa_mandates_insert AFTER INSERT ON sepa_mandates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('sepa_mandates', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'person_id', json_array(NULL, NEW."person_id"), 'account_holder', json_array(NULL, NEW."account_holder"), 'iban', json_array(NULL, NEW."iban"), 'bic', json_array(NULL, NEW."bic"), 'reference', json_array(NULL, NEW."reference"), 'mandate_date', json_array(NULL, NEW."mandate_date"), 'first_collection_on', json_array(NULL, NEW."first_collection_on"), 'is_active', json_array(NULL, NEW."is_active"), 'comments', json_array(NULL, NEW."comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_sepa_mandates_update;
--> statement-breakpoint
CREATE TRIGGER history_sepa_mandates_update AFTER UPDATE ON sepa_mandates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."person_id" IS NOT NEW."person_id" OR OLD."account_holder" IS NOT NEW."account_holder" OR OLD."iban" IS NOT NEW."iban" OR OLD."bic" IS NOT NEW."bic" OR OLD."reference" IS NOT NEW."reference" OR OLD."mandate_date" IS NOT NEW."mandate_date" OR OLD."first_collection_on" IS NOT NEW."first_collection_on" OR OLD."is_active" IS NOT NEW."is_active" OR OLD."comments" IS NOT NEW."comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('sepa_mandates', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'person_id', CASE WHEN OLD."person_id" IS NOT NEW."person_id" THEN json_array(OLD."person_id", NEW."person_id") END , 'account_holder', CASE WHEN OLD."account_holder" IS NOT NEW."account_holder" THEN json_array(OLD."account_holder", NEW."account_holder") END , 'iban', CASE WHEN OLD."iban" IS NOT NEW."iban" THEN json_array(OLD."iban", NEW."iban") END , 'bic', CASE WHEN OLD."bic" IS NOT NEW."bic" THEN json_array(OLD."bic", NEW."bic") END , 'reference', CASE WHEN OLD."reference" IS NOT NEW."reference" THEN json_array(OLD."reference", NEW."reference") END , 'mandate_date', CASE WHEN OLD."mandate_date" IS NOT NEW."mandate_date" THEN json_array(OLD."mandate_date", NEW."mandate_date") END , 'first_collection_on', CASE WHEN OLD."first_collection_on" IS NOT NEW."first_collection_on" THEN json_array(OLD."first_collection_on", NEW."first_collection_on") END , 'is_active', CASE WHEN OLD."is_active" IS NOT NEW."is_active" THEN json_array(OLD."is_active", NEW."is_active") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_sepa_mandates_delete;
--> statement-breakpoint
CREATE TRIGGER history_sepa_mandates_delete AFTER DELETE ON sepa_mandates WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('sepa_mandates', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'person_id', json_array(OLD."person_id", NULL), 'account_holder', json_array(OLD."account_holder", NULL), 'iban', json_array(OLD."iban", NULL), 'bic', json_array(OLD."bic", NULL), 'reference', json_array(OLD."reference", NULL), 'mandate_date', json_array(OLD."mandate_date", NULL), 'first_collection_on', json_array(OLD."first_collection_on", NULL), 'is_active', json_array(OLD."is_active", NULL), 'comments', json_array(OLD."comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_configuration_insert;
--> statement-breakpoint
CREATE TRIGGER history_configuration_insert AFTER INSERT ON configuration WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('configuration', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'hsvrm_verein_name', json_array(NULL, NEW."hsvrm_verein_name"), 'hsvrm_kg', json_array(NULL, NEW."hsvrm_kg"), 'hsvrm_verein_nr', json_array(NULL, NEW."hsvrm_verein_nr"), 'smtp_test_account', json_array(NULL, NEW."smtp_test_account"), 'club_membership_enrollment_fee', json_array(NULL, NEW."club_membership_enrollment_fee"), 'club_membership_price_full', json_array(NULL, NEW."club_membership_price_full"), 'club_membership_price_reduced1', json_array(NULL, NEW."club_membership_price_reduced1"), 'club_membership_price_reduced2', json_array(NULL, NEW."club_membership_price_reduced2"), 'last_invoice_number', json_array(NULL, NEW."last_invoice_number"), 'mollie_integration', json_array(NULL, NEW."mollie_integration"), 'club_name', json_array(NULL, NEW."club_name"), 'club_street', json_array(NULL, NEW."club_street"), 'club_zip', json_array(NULL, NEW."club_zip"), 'club_city', json_array(NULL, NEW."club_city"), 'club_phone', json_array(NULL, NEW."club_phone"), 'club_email', json_array(NULL, NEW."club_email"), 'tax_number', json_array(NULL, NEW."tax_number"), 'tax_exemption_note', json_array(NULL, NEW."tax_exemption_note"), 'bank_account_holder', json_array(NULL, NEW."bank_account_holder"), 'iban', json_array(NULL, NEW."iban"), 'bic', json_array(NULL, NEW."bic"), 'bank_name', json_array(NULL, NEW."bank_name"), 'creditor_id', json_array(NULL, NEW."creditor_id"), 'mandate_text', json_array(NULL, NEW."mandate_text"), 'retention_years', json_array(NULL, NEW."retention_years"), 'comments', json_array(NULL, NEW."comments"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_configuration_update;
--> statement-breakpoint
CREATE TRIGGER history_configuration_update AFTER UPDATE ON configuration WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."hsvrm_verein_name" IS NOT NEW."hsvrm_verein_name" OR OLD."hsvrm_kg" IS NOT NEW."hsvrm_kg" OR OLD."hsvrm_verein_nr" IS NOT NEW."hsvrm_verein_nr" OR OLD."smtp_test_account" IS NOT NEW."smtp_test_account" OR OLD."club_membership_enrollment_fee" IS NOT NEW."club_membership_enrollment_fee" OR OLD."club_membership_price_full" IS NOT NEW."club_membership_price_full" OR OLD."club_membership_price_reduced1" IS NOT NEW."club_membership_price_reduced1" OR OLD."club_membership_price_reduced2" IS NOT NEW."club_membership_price_reduced2" OR OLD."last_invoice_number" IS NOT NEW."last_invoice_number" OR OLD."mollie_integration" IS NOT NEW."mollie_integration" OR OLD."club_name" IS NOT NEW."club_name" OR OLD."club_street" IS NOT NEW."club_street" OR OLD."club_zip" IS NOT NEW."club_zip" OR OLD."club_city" IS NOT NEW."club_city" OR OLD."club_phone" IS NOT NEW."club_phone" OR OLD."club_email" IS NOT NEW."club_email" OR OLD."tax_number" IS NOT NEW."tax_number" OR OLD."tax_exemption_note" IS NOT NEW."tax_exemption_note" OR OLD."bank_account_holder" IS NOT NEW."bank_account_holder" OR OLD."iban" IS NOT NEW."iban" OR OLD."bic" IS NOT NEW."bic" OR OLD."bank_name" IS NOT NEW."bank_name" OR OLD."creditor_id" IS NOT NEW."creditor_id" OR OLD."mandate_text" IS NOT NEW."mandate_text" OR OLD."retention_years" IS NOT NEW."retention_years" OR OLD."comments" IS NOT NEW."comments" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('configuration', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'hsvrm_verein_name', CASE WHEN OLD."hsvrm_verein_name" IS NOT NEW."hsvrm_verein_name" THEN json_array(OLD."hsvrm_verein_name", NEW."hsvrm_verein_name") END , 'hsvrm_kg', CASE WHEN OLD."hsvrm_kg" IS NOT NEW."hsvrm_kg" THEN json_array(OLD."hsvrm_kg", NEW."hsvrm_kg") END , 'hsvrm_verein_nr', CASE WHEN OLD."hsvrm_verein_nr" IS NOT NEW."hsvrm_verein_nr" THEN json_array(OLD."hsvrm_verein_nr", NEW."hsvrm_verein_nr") END , 'smtp_test_account', CASE WHEN OLD."smtp_test_account" IS NOT NEW."smtp_test_account" THEN json_array(OLD."smtp_test_account", NEW."smtp_test_account") END , 'club_membership_enrollment_fee', CASE WHEN OLD."club_membership_enrollment_fee" IS NOT NEW."club_membership_enrollment_fee" THEN json_array(OLD."club_membership_enrollment_fee", NEW."club_membership_enrollment_fee") END , 'club_membership_price_full', CASE WHEN OLD."club_membership_price_full" IS NOT NEW."club_membership_price_full" THEN json_array(OLD."club_membership_price_full", NEW."club_membership_price_full") END , 'club_membership_price_reduced1', CASE WHEN OLD."club_membership_price_reduced1" IS NOT NEW."club_membership_price_reduced1" THEN json_array(OLD."club_membership_price_reduced1", NEW."club_membership_price_reduced1") END , 'club_membership_price_reduced2', CASE WHEN OLD."club_membership_price_reduced2" IS NOT NEW."club_membership_price_reduced2" THEN json_array(OLD."club_membership_price_reduced2", NEW."club_membership_price_reduced2") END , 'last_invoice_number', CASE WHEN OLD."last_invoice_number" IS NOT NEW."last_invoice_number" THEN json_array(OLD."last_invoice_number", NEW."last_invoice_number") END , 'mollie_integration', CASE WHEN OLD."mollie_integration" IS NOT NEW."mollie_integration" THEN json_array(OLD."mollie_integration", NEW."mollie_integration") END , 'club_name', CASE WHEN OLD."club_name" IS NOT NEW."club_name" THEN json_array(OLD."club_name", NEW."club_name") END , 'club_street', CASE WHEN OLD."club_street" IS NOT NEW."club_street" THEN json_array(OLD."club_street", NEW."club_street") END , 'club_zip', CASE WHEN OLD."club_zip" IS NOT NEW."club_zip" THEN json_array(OLD."club_zip", NEW."club_zip") END , 'club_city', CASE WHEN OLD."club_city" IS NOT NEW."club_city" THEN json_array(OLD."club_city", NEW."club_city") END , 'club_phone', CASE WHEN OLD."club_phone" IS NOT NEW."club_phone" THEN json_array(OLD."club_phone", NEW."club_phone") END , 'club_email', CASE WHEN OLD."club_email" IS NOT NEW."club_email" THEN json_array(OLD."club_email", NEW."club_email") END , 'tax_number', CASE WHEN OLD."tax_number" IS NOT NEW."tax_number" THEN json_array(OLD."tax_number", NEW."tax_number") END , 'tax_exemption_note', CASE WHEN OLD."tax_exemption_note" IS NOT NEW."tax_exemption_note" THEN json_array(OLD."tax_exemption_note", NEW."tax_exemption_note") END , 'bank_account_holder', CASE WHEN OLD."bank_account_holder" IS NOT NEW."bank_account_holder" THEN json_array(OLD."bank_account_holder", NEW."bank_account_holder") END , 'iban', CASE WHEN OLD."iban" IS NOT NEW."iban" THEN json_array(OLD."iban", NEW."iban") END , 'bic', CASE WHEN OLD."bic" IS NOT NEW."bic" THEN json_array(OLD."bic", NEW."bic") END , 'bank_name', CASE WHEN OLD."bank_name" IS NOT NEW."bank_name" THEN json_array(OLD."bank_name", NEW."bank_name") END , 'creditor_id', CASE WHEN OLD."creditor_id" IS NOT NEW."creditor_id" THEN json_array(OLD."creditor_id", NEW."creditor_id") END , 'mandate_text', CASE WHEN OLD."mandate_text" IS NOT NEW."mandate_text" THEN json_array(OLD."mandate_text", NEW."mandate_text") END , 'retention_years', CASE WHEN OLD."retention_years" IS NOT NEW."retention_years" THEN json_array(OLD."retention_years", NEW."retention_years") END , 'comments', CASE WHEN OLD."comments" IS NOT NEW."comments" THEN json_array(OLD."comments", NEW."comments") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_configuration_delete;
--> statement-breakpoint
CREATE TRIGGER history_configuration_delete AFTER DELETE ON configuration WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('configuration', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'hsvrm_verein_name', json_array(OLD."hsvrm_verein_name", NULL), 'hsvrm_kg', json_array(OLD."hsvrm_kg", NULL), 'hsvrm_verein_nr', json_array(OLD."hsvrm_verein_nr", NULL), 'smtp_test_account', json_array(OLD."smtp_test_account", NULL), 'club_membership_enrollment_fee', json_array(OLD."club_membership_enrollment_fee", NULL), 'club_membership_price_full', json_array(OLD."club_membership_price_full", NULL), 'club_membership_price_reduced1', json_array(OLD."club_membership_price_reduced1", NULL), 'club_membership_price_reduced2', json_array(OLD."club_membership_price_reduced2", NULL), 'last_invoice_number', json_array(OLD."last_invoice_number", NULL), 'mollie_integration', json_array(OLD."mollie_integration", NULL), 'club_name', json_array(OLD."club_name", NULL), 'club_street', json_array(OLD."club_street", NULL), 'club_zip', json_array(OLD."club_zip", NULL), 'club_city', json_array(OLD."club_city", NULL), 'club_phone', json_array(OLD."club_phone", NULL), 'club_email', json_array(OLD."club_email", NULL), 'tax_number', json_array(OLD."tax_number", NULL), 'tax_exemption_note', json_array(OLD."tax_exemption_note", NULL), 'bank_account_holder', json_array(OLD."bank_account_holder", NULL), 'iban', json_array(OLD."iban", NULL), 'bic', json_array(OLD."bic", NULL), 'bank_name', json_array(OLD."bank_name", NULL), 'creditor_id', json_array(OLD."creditor_id", NULL), 'mandate_text', json_array(OLD."mandate_text", NULL), 'retention_years', json_array(OLD."retention_years", NULL), 'comments', json_array(OLD."comments", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_reminder_levels_insert;
--> statement-breakpoint
CREATE TRIGGER history_reminder_levels_insert AFTER INSERT ON reminder_levels WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('reminder_levels', NEW."level", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('level', json_array(NULL, NEW."level"), 'enabled', json_array(NULL, NEW."enabled"), 'title', json_array(NULL, NEW."title"), 'days', json_array(NULL, NEW."days"), 'fee', json_array(NULL, NEW."fee"), 'payment_term_days', json_array(NULL, NEW."payment_term_days"), 'mail_template', json_array(NULL, NEW."mail_template"), 'letter_template', json_array(NULL, NEW."letter_template"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_reminder_levels_update;
--> statement-breakpoint
CREATE TRIGGER history_reminder_levels_update AFTER UPDATE ON reminder_levels WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."level" IS NOT NEW."level" OR OLD."enabled" IS NOT NEW."enabled" OR OLD."title" IS NOT NEW."title" OR OLD."days" IS NOT NEW."days" OR OLD."fee" IS NOT NEW."fee" OR OLD."payment_term_days" IS NOT NEW."payment_term_days" OR OLD."mail_template" IS NOT NEW."mail_template" OR OLD."letter_template" IS NOT NEW."letter_template" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('reminder_levels', NEW."level", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('level', CASE WHEN OLD."level" IS NOT NEW."level" THEN json_array(OLD."level", NEW."level") END , 'enabled', CASE WHEN OLD."enabled" IS NOT NEW."enabled" THEN json_array(OLD."enabled", NEW."enabled") END , 'title', CASE WHEN OLD."title" IS NOT NEW."title" THEN json_array(OLD."title", NEW."title") END , 'days', CASE WHEN OLD."days" IS NOT NEW."days" THEN json_array(OLD."days", NEW."days") END , 'fee', CASE WHEN OLD."fee" IS NOT NEW."fee" THEN json_array(OLD."fee", NEW."fee") END , 'payment_term_days', CASE WHEN OLD."payment_term_days" IS NOT NEW."payment_term_days" THEN json_array(OLD."payment_term_days", NEW."payment_term_days") END , 'mail_template', CASE WHEN OLD."mail_template" IS NOT NEW."mail_template" THEN json_array(OLD."mail_template", NEW."mail_template") END , 'letter_template', CASE WHEN OLD."letter_template" IS NOT NEW."letter_template" THEN json_array(OLD."letter_template", NEW."letter_template") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_reminder_levels_delete;
--> statement-breakpoint
CREATE TRIGGER history_reminder_levels_delete AFTER DELETE ON reminder_levels WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('reminder_levels', OLD."level", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('level', json_array(OLD."level", NULL), 'enabled', json_array(OLD."enabled", NULL), 'title', json_array(OLD."title", NULL), 'days', json_array(OLD."days", NULL), 'fee', json_array(OLD."fee", NULL), 'payment_term_days', json_array(OLD."payment_term_days", NULL), 'mail_template', json_array(OLD."mail_template", NULL), 'letter_template', json_array(OLD."letter_template", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_reminders_insert;
--> statement-breakpoint
CREATE TRIGGER history_reminders_insert AFTER INSERT ON reminders WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('reminders', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'INSERT' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(NULL, NEW."id"), 'target_type', json_array(NULL, NEW."target_type"), 'target_id', json_array(NULL, NEW."target_id"), 'person_id', json_array(NULL, NEW."person_id"), 'level', json_array(NULL, NEW."level"), 'date', json_array(NULL, NEW."date"), 'new_due_date', json_array(NULL, NEW."new_due_date"), 'open_amount', json_array(NULL, NEW."open_amount"), 'fee_id', json_array(NULL, NEW."fee_id"), 'channel', json_array(NULL, NEW."channel"), 'status', json_array(NULL, NEW."status"), 'job_id', json_array(NULL, NEW."job_id"), 'sent_on', json_array(NULL, NEW."sent_on"), 'sent_by', json_array(NULL, NEW."sent_by"), 'cancelled_on', json_array(NULL, NEW."cancelled_on"), 'cancelled_by', json_array(NULL, NEW."cancelled_by"), 'mail_log_id', json_array(NULL, NEW."mail_log_id"), 'pdf_key', json_array(NULL, NEW."pdf_key"), 'created_by', json_array(NULL, NEW."created_by"), 'created_on', json_array(NULL, NEW."created_on"), 'last_modified_by', json_array(NULL, NEW."last_modified_by"), 'last_modified_on', json_array(NULL, NEW."last_modified_on"), 'row_version', json_array(NULL, NEW."row_version")), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_reminders_update;
--> statement-breakpoint
CREATE TRIGGER history_reminders_update AFTER UPDATE ON reminders WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' AND (OLD."id" IS NOT NEW."id" OR OLD."target_type" IS NOT NEW."target_type" OR OLD."target_id" IS NOT NEW."target_id" OR OLD."person_id" IS NOT NEW."person_id" OR OLD."level" IS NOT NEW."level" OR OLD."date" IS NOT NEW."date" OR OLD."new_due_date" IS NOT NEW."new_due_date" OR OLD."open_amount" IS NOT NEW."open_amount" OR OLD."fee_id" IS NOT NEW."fee_id" OR OLD."channel" IS NOT NEW."channel" OR OLD."status" IS NOT NEW."status" OR OLD."job_id" IS NOT NEW."job_id" OR OLD."sent_on" IS NOT NEW."sent_on" OR OLD."sent_by" IS NOT NEW."sent_by" OR OLD."cancelled_on" IS NOT NEW."cancelled_on" OR OLD."cancelled_by" IS NOT NEW."cancelled_by" OR OLD."mail_log_id" IS NOT NEW."mail_log_id" OR OLD."pdf_key" IS NOT NEW."pdf_key" OR OLD."created_by" IS NOT NEW."created_by" OR OLD."created_on" IS NOT NEW."created_on") BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('reminders', NEW."id", CASE WHEN (SELECT action FROM write_context WHERE id = 1) IS 'RESTORE' THEN 'RESTORE' ELSE 'UPDATE' END , COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_patch('{}', json_object('id', CASE WHEN OLD."id" IS NOT NEW."id" THEN json_array(OLD."id", NEW."id") END , 'target_type', CASE WHEN OLD."target_type" IS NOT NEW."target_type" THEN json_array(OLD."target_type", NEW."target_type") END , 'target_id', CASE WHEN OLD."target_id" IS NOT NEW."target_id" THEN json_array(OLD."target_id", NEW."target_id") END , 'person_id', CASE WHEN OLD."person_id" IS NOT NEW."person_id" THEN json_array(OLD."person_id", NEW."person_id") END , 'level', CASE WHEN OLD."level" IS NOT NEW."level" THEN json_array(OLD."level", NEW."level") END , 'date', CASE WHEN OLD."date" IS NOT NEW."date" THEN json_array(OLD."date", NEW."date") END , 'new_due_date', CASE WHEN OLD."new_due_date" IS NOT NEW."new_due_date" THEN json_array(OLD."new_due_date", NEW."new_due_date") END , 'open_amount', CASE WHEN OLD."open_amount" IS NOT NEW."open_amount" THEN json_array(OLD."open_amount", NEW."open_amount") END , 'fee_id', CASE WHEN OLD."fee_id" IS NOT NEW."fee_id" THEN json_array(OLD."fee_id", NEW."fee_id") END , 'channel', CASE WHEN OLD."channel" IS NOT NEW."channel" THEN json_array(OLD."channel", NEW."channel") END , 'status', CASE WHEN OLD."status" IS NOT NEW."status" THEN json_array(OLD."status", NEW."status") END , 'job_id', CASE WHEN OLD."job_id" IS NOT NEW."job_id" THEN json_array(OLD."job_id", NEW."job_id") END , 'sent_on', CASE WHEN OLD."sent_on" IS NOT NEW."sent_on" THEN json_array(OLD."sent_on", NEW."sent_on") END , 'sent_by', CASE WHEN OLD."sent_by" IS NOT NEW."sent_by" THEN json_array(OLD."sent_by", NEW."sent_by") END , 'cancelled_on', CASE WHEN OLD."cancelled_on" IS NOT NEW."cancelled_on" THEN json_array(OLD."cancelled_on", NEW."cancelled_on") END , 'cancelled_by', CASE WHEN OLD."cancelled_by" IS NOT NEW."cancelled_by" THEN json_array(OLD."cancelled_by", NEW."cancelled_by") END , 'mail_log_id', CASE WHEN OLD."mail_log_id" IS NOT NEW."mail_log_id" THEN json_array(OLD."mail_log_id", NEW."mail_log_id") END , 'pdf_key', CASE WHEN OLD."pdf_key" IS NOT NEW."pdf_key" THEN json_array(OLD."pdf_key", NEW."pdf_key") END , 'created_by', CASE WHEN OLD."created_by" IS NOT NEW."created_by" THEN json_array(OLD."created_by", NEW."created_by") END , 'created_on', CASE WHEN OLD."created_on" IS NOT NEW."created_on" THEN json_array(OLD."created_on", NEW."created_on") END )), (SELECT source FROM write_context WHERE id = 1));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS history_reminders_delete;
--> statement-breakpoint
CREATE TRIGGER history_reminders_delete AFTER DELETE ON reminders WHEN (SELECT action FROM write_context WHERE id = 1) IS NOT 'ERASE' BEGIN
INSERT INTO change_history (table_name, record_id, action, changed_by, changed_on, changes, source)
  VALUES ('reminders', OLD."id", 'DELETE', COALESCE((SELECT actor FROM write_context WHERE id = 1), 'unbekannt'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
  json_object('id', json_array(OLD."id", NULL), 'target_type', json_array(OLD."target_type", NULL), 'target_id', json_array(OLD."target_id", NULL), 'person_id', json_array(OLD."person_id", NULL), 'level', json_array(OLD."level", NULL), 'date', json_array(OLD."date", NULL), 'new_due_date', json_array(OLD."new_due_date", NULL), 'open_amount', json_array(OLD."open_amount", NULL), 'fee_id', json_array(OLD."fee_id", NULL), 'channel', json_array(OLD."channel", NULL), 'status', json_array(OLD."status", NULL), 'job_id', json_array(OLD."job_id", NULL), 'sent_on', json_array(OLD."sent_on", NULL), 'sent_by', json_array(OLD."sent_by", NULL), 'cancelled_on', json_array(OLD."cancelled_on", NULL), 'cancelled_by', json_array(OLD."cancelled_by", NULL), 'mail_log_id', json_array(OLD."mail_log_id", NULL), 'pdf_key', json_array(OLD."pdf_key", NULL), 'created_by', json_array(OLD."created_by", NULL), 'created_on', json_array(OLD."created_on", NULL), 'last_modified_by', json_array(OLD."last_modified_by", NULL), 'last_modified_on', json_array(OLD."last_modified_on", NULL), 'row_version', json_array(OLD."row_version", NULL)), (SELECT source FROM write_context WHERE id = 1));
END;
