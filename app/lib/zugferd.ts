/**
 * ZUGFeRD 2.x / Factur-X (issue 35 item 6): the invoice PDF of a business recipient carries its
 * e-invoice, the XRechnung CII XML (app/lib/xrechnung.ts), as an embedded file with the
 * relationship 'Alternative' (listed in the catalog's /AF array and /Names /EmbeddedFiles), and
 * the XMP metadata Factur-X asks for: the PDF/A identification (part 3, conformance B), the
 * Factur-X extension schema, and fx:DocumentType, fx:DocumentFileName, fx:Version and
 * fx:ConformanceLevel (profile XRECHNUNG). Done with pdf-lib on the bytes Chromium printed,
 * before the PDF is hashed and stored (its SHA-256 is set once).
 *
 * What this does not make: a verified PDF/A-3 file. Chromium's PDF embeds its fonts and is tagged,
 * and gets a file identifier here, but it has no output intent (ICC profile), and nothing here
 * checks the rest of ISO 19005-3; see the section 'E-Rechnung' in docs/money.md.
 */
import { AFRelationship, PDFDocument, PDFHexString, PDFName } from "pdf-lib";
import { toHex } from "./bytes";

/** The name of the embedded XML (Factur-X 1.0 / ZUGFeRD 2.x since 2.1) and its profile. */
const FACTURX_FILE_NAME = "factur-x.xml";
const FACTURX_CONFORMANCE_LEVEL = "XRECHNUNG";
const FACTURX_NAMESPACE = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";
const PRODUCER = "Wuff";

const escapeXml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** '2026-03-15T10:00:00Z': an XMP date, the same instant as the info dictionary's. */
const xmpDate = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

const extensionProperty = (name: string, description: string) => `
              <rdf:li rdf:parseType="Resource">
                <pdfaProperty:name>${name}</pdfaProperty:name>
                <pdfaProperty:valueType>Text</pdfaProperty:valueType>
                <pdfaProperty:category>external</pdfaProperty:category>
                <pdfaProperty:description>${description}</pdfaProperty:description>
              </rdf:li>`;

/** The XMP packet of a ZUGFeRD / Factur-X invoice PDF. */
function facturXMetadata({ title, date }: { title: string; date: Date }): string {
  const when = xmpDate(date);
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <dc:format>application/pdf</dc:format>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(title)}</rdf:li></rdf:Alt></dc:title>
      <dc:creator><rdf:Seq><rdf:li>${PRODUCER}</rdf:li></rdf:Seq></dc:creator>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
      <xmp:CreatorTool>${PRODUCER}</xmp:CreatorTool>
      <xmp:CreateDate>${when}</xmp:CreateDate>
      <xmp:ModifyDate>${when}</xmp:ModifyDate>
      <xmp:MetadataDate>${when}</xmp:MetadataDate>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
      <pdf:Producer>${PRODUCER}</pdf:Producer>
    </rdf:Description>
    <rdf:Description rdf:about=""
        xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
        xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
        xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
      <pdfaExtension:schemas>
        <rdf:Bag>
          <rdf:li rdf:parseType="Resource">
            <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
            <pdfaSchema:namespaceURI>${FACTURX_NAMESPACE}</pdfaSchema:namespaceURI>
            <pdfaSchema:prefix>fx</pdfaSchema:prefix>
            <pdfaSchema:property>
              <rdf:Seq>${extensionProperty("DocumentFileName", "The name of the embedded XML document")}${extensionProperty(
                "DocumentType",
                "The type of the hybrid document in capital letters, e.g. INVOICE or ORDER",
              )}${extensionProperty("Version", "The actual version of the standard applying to the embedded XML document")}${extensionProperty(
                "ConformanceLevel",
                "The conformance level of the embedded XML document",
              )}
              </rdf:Seq>
            </pdfaSchema:property>
          </rdf:li>
        </rdf:Bag>
      </pdfaExtension:schemas>
    </rdf:Description>
    <rdf:Description rdf:about="" xmlns:fx="${FACTURX_NAMESPACE}">
      <fx:DocumentType>INVOICE</fx:DocumentType>
      <fx:DocumentFileName>${FACTURX_FILE_NAME}</fx:DocumentFileName>
      <fx:Version>1.0</fx:Version>
      <fx:ConformanceLevel>${FACTURX_CONFORMANCE_LEVEL}</fx:ConformanceLevel>
    </rdf:Description>
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/**
 * The PDF with the e-invoice embedded as factur-x.xml and the Factur-X XMP metadata; the info
 * dictionary's title, producer and dates match the XMP's.
 */
export async function embedFacturX(pdf: Uint8Array, xml: string, { title, date }: { title: string; date: Date }): Promise<Uint8Array> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const bytes = new TextEncoder().encode(xml);
  await document.attach(bytes, FACTURX_FILE_NAME, {
    mimeType: "text/xml",
    description: "Rechnungsdaten (XRechnung, ZUGFeRD / Factur-X)",
    creationDate: date,
    modificationDate: date,
    afRelationship: AFRelationship.Alternative,
  });
  document.setTitle(title);
  document.setProducer(PRODUCER);
  document.setCreator(PRODUCER);
  document.setCreationDate(date);
  document.setModificationDate(date);
  // Uncompressed, as PDF/A wants the metadata readable without a filter.
  const metadata = document.context.stream(new TextEncoder().encode(facturXMetadata({ title, date })), { Type: "Metadata", Subtype: "XML" });
  document.catalog.set(PDFName.of("Metadata"), document.context.register(metadata));
  // PDF/A asks for a file identifier in the trailer, which Chromium's PDF has not: the first 16
  // bytes of the printed PDF's SHA-256, twice (the document was created with this content).
  if (!document.context.trailerInfo.ID) {
    const id = PDFHexString.of(toHex(await crypto.subtle.digest("SHA-256", pdf as BufferSource)).slice(0, 32));
    document.context.trailerInfo.ID = document.context.obj([id, id]);
  }
  return document.save({ useObjectStreams: false });
}
