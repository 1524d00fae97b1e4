-- Issue 33 item 4: the mails that confirm a booking ended in Mein Wuff, with the date and time it
-- was received: a cancellation within the course type's cut-off, and a withdrawal (§ 356a BGB:
-- its content and the time of receipt, on a durable medium, without delay).
INSERT OR REPLACE INTO write_context (id, actor, action, source) VALUES (1, 'Migration', 'ERASE', NULL);--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Stornierung bestätigt (Mein Wuff)', 'MAIL', 'Stornierung bestätigt: {{course}} mit {{dog}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>Hallo {{firstName}},</p>
<p>deine Stornierung der Buchung „{{course}}“ mit {{dog}} ist am {{received}} Uhr bei {{club}} eingegangen. Die Buchung ist beendet.</p>
<p>{{fee}}</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', 'Hallo {{firstName}},

deine Stornierung der Buchung „{{course}}“ mit {{dog}} ist am {{received}} Uhr bei {{club}} eingegangen. Die Buchung ist beendet.

{{fee}}

Viele Grüße
{{club}}', 'Mein Wuff: die Bestätigung einer Stornierung in Mein Wuff ({{course}}, {{dog}}, {{received}}: Datum und Uhrzeit des Eingangs, {{fee}}: was aus der Kursgebühr wird).', 'Migration');--> statement-breakpoint
INSERT INTO `templates` (`name`, `kind`, `subject`, `html`, `text`, `comments`, `created_by`) VALUES ('Widerruf bestätigt (Mein Wuff)', 'MAIL', 'Eingangsbestätigung deines Widerrufs: {{course}}', '<div style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1e293b;">
<p>Hallo {{firstName}},</p>
<p>wir bestätigen den Eingang deines Widerrufs am {{received}} Uhr.</p>
<p>Deine Erklärung: „Hiermit widerrufe ich den online geschlossenen Vertrag über den Kurs „{{course}}“ mit {{dog}}.“ Erklärt von {{firstName}} {{lastName}} in Mein Wuff.</p>
<p>Der Vertrag ist damit beendet. {{fee}} Schon Gezahltes erstatten wir innerhalb von 14 Tagen.</p>
<p>Viele Grüße<br>{{club}}</p>
</div>', 'Hallo {{firstName}},

wir bestätigen den Eingang deines Widerrufs am {{received}} Uhr.

Deine Erklärung: „Hiermit widerrufe ich den online geschlossenen Vertrag über den Kurs „{{course}}“ mit {{dog}}.“ Erklärt von {{firstName}} {{lastName}} in Mein Wuff.

Der Vertrag ist damit beendet. {{fee}} Schon Gezahltes erstatten wir innerhalb von 14 Tagen.

Viele Grüße
{{club}}', 'Mein Wuff: die Eingangsbestätigung eines Widerrufs mit seinem Inhalt und Datum und Uhrzeit des Eingangs (§ 356a BGB; {{course}}, {{dog}}, {{received}}, {{fee}}).', 'Migration');--> statement-breakpoint
DELETE FROM write_context WHERE id = 1;
