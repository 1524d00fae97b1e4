/**
 * Version 1 of the terms (AGB) and the withdrawal notice (Widerrufsbelehrung) for booking courses
 * online (issue 33 item 5): a default wording a dog school can start from and reword in
 * Einstellungen → Texte für Mein Wuff. Migration 0058 writes the same bodies (its test compares
 * them), the demo seed brings them too. "Wir" are the club named in the imprint; Mein Wuff speaks
 * to its members as "du".
 */

export const DEFAULT_TERMS = `Allgemeine Geschäftsbedingungen für Kurse

1. Geltung
Diese Bedingungen gelten für die Kurse, die du bei uns buchst, online in Mein Wuff oder auf anderem Weg. Wer „wir“ sind, steht im Impressum.

2. Vertragsschluss
Die Kurse im Kursangebot sind noch kein verbindliches Angebot. Mit dem Absenden deiner Buchung bietest du uns verbindlich an, den Kurs für dich und deinen Hund zu buchen. Der Vertrag kommt zustande, wenn wir deine Buchung per E-Mail bestätigen.

3. Preise
Es gilt der Preis, der bei der Buchung angezeigt wird. Alle Preise sind Endpreise; soweit für den Kurs Umsatzsteuer anfällt, ist sie darin enthalten.

4. Zahlung
Den Kurspreis stellen wir dir nach der Bestätigung in Rechnung; er ist zu dem Datum fällig, das die Rechnung nennt. Du zahlst per Überweisung, online in Mein Wuff oder per SEPA-Lastschrift, wenn du uns ein Lastschriftmandat erteilt hast.

5. Abmeldung
Bis zu der Frist, die der Kurs nennt (zum Beispiel „bis 7 Tage vor Kursbeginn“), kannst du deine Buchung in Mein Wuff oder uns gegenüber ohne Kosten stornieren; schon Gezahltes erstatten wir. Meldest du dich später ab oder kommst du nicht, bleibt der Kurspreis zu zahlen, außer wir können den Platz neu besetzen; was wir dadurch sparen, rechnen wir an. Dein Widerrufsrecht nach der Widerrufsbelehrung bleibt unberührt.

6. Teilnahme und Haftung
Dein Hund muss gesund sein und die Voraussetzungen erfüllen, die der Kurs nennt (etwa Mindestalter, gültige Tollwutimpfung). Für Schäden, die dein Hund verursacht, haftest du als Halterin oder Halter nach den gesetzlichen Vorschriften (§ 833 BGB). Für deinen Hund muss eine Hundehalter-Haftpflichtversicherung bestehen; auf Verlangen weist du sie nach. Bitte folge den Anweisungen der Trainerinnen und Trainer. Wir haften nach den gesetzlichen Vorschriften.

7. Ausfall durch uns
Müssen wir einen Termin absagen (zum Beispiel wegen Krankheit oder Unwetter), bieten wir dir einen Ersatztermin an; ist das nicht möglich, erstatten wir den Anteil des Kurspreises für diesen Termin. Findet ein Kurs gar nicht statt (zum Beispiel, weil sich zu wenige angemeldet haben), erstatten wir den ganzen Kurspreis. Deine gesetzlichen Rechte bleiben unberührt.`;

export const DEFAULT_WITHDRAWAL = `Widerrufsbelehrung

Widerrufsrecht
Du hast das Recht, diesen Vertrag binnen vierzehn Tagen ohne Angabe von Gründen zu widerrufen. Die Widerrufsfrist beträgt vierzehn Tage ab dem Tag des Vertragsschlusses.

Um dein Widerrufsrecht auszuüben, musst du uns (dem im Impressum genannten Verein, mit Anschrift, Telefonnummer und E-Mail-Adresse) mit einer eindeutigen Erklärung, zum Beispiel einem Brief oder einer E-Mail, über deinen Entschluss informieren, diesen Vertrag zu widerrufen. Du kannst dafür das Muster-Widerrufsformular unten verwenden, das jedoch nicht vorgeschrieben ist. Hast du online gebucht, kannst du auch die Schaltfläche „Vertrag widerrufen“ in Mein Wuff nutzen; den Eingang deines Widerrufs bestätigen wir dir dann unverzüglich per E-Mail.

Zur Wahrung der Widerrufsfrist reicht es aus, dass du die Mitteilung über die Ausübung des Widerrufsrechts vor Ablauf der Widerrufsfrist absendest.

Folgen des Widerrufs
Wenn du diesen Vertrag widerrufst, erstatten wir dir alle Zahlungen, die wir von dir erhalten haben, unverzüglich und spätestens binnen vierzehn Tagen ab dem Tag, an dem die Mitteilung über deinen Widerruf bei uns eingegangen ist. Für die Rückzahlung verwenden wir dasselbe Zahlungsmittel, mit dem du bezahlt hast, es sei denn, mit dir wurde ausdrücklich etwas anderes vereinbart; in keinem Fall berechnen wir dir für die Rückzahlung Entgelte.

Hast du verlangt, dass die Dienstleistung während der Widerrufsfrist beginnen soll, so hast du uns einen angemessenen Betrag zu zahlen, der dem Anteil der bis zu deinem Widerruf bereits erbrachten Dienstleistungen am Gesamtumfang der im Vertrag vorgesehenen Dienstleistungen entspricht.

Kein Widerrufsrecht
Das Widerrufsrecht besteht nicht bei Verträgen über Dienstleistungen im Zusammenhang mit Freizeitbetätigungen, wenn der Vertrag für die Erbringung einen spezifischen Termin oder Zeitraum vorsieht (§ 312g Abs. 2 Nr. 9 BGB), etwa bei einem Kurs zu festen Terminen.

Muster-Widerrufsformular
(Wenn du den Vertrag widerrufen willst, fülle bitte dieses Formular aus und sende es zurück.)
An: den im Impressum genannten Verein (Name, Anschrift, E-Mail-Adresse)
Hiermit widerrufe(n) ich/wir (*) den von mir/uns (*) abgeschlossenen Vertrag über die Erbringung der folgenden Dienstleistung (*): …
Bestellt am (*): …
Name des/der Verbraucher(s): …
Anschrift des/der Verbraucher(s): …
Unterschrift des/der Verbraucher(s) (nur bei Mitteilung auf Papier): …
Datum: …
(*) Unzutreffendes streichen.`;
