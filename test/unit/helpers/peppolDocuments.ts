/**
 * Peppol documents shaped as they arrive in the wild, for the scanner and extraction tests:
 * the OpenPEPPOL examples' cac:/cbc: form with a default namespace, a JAXB-style writer's
 * ns2:/ns3: prefixes with cbc as the default namespace, fully prefixed UBL, and documents in
 * their SBDH envelope (prefixed and unprefixed, namespaces declared on the envelope).
 */
const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:';
export const NS = {
	invoice: `${UBL}Invoice-2`,
	creditNote: `${UBL}CreditNote-2`,
	response: `${UBL}ApplicationResponse-2`,
	cac: `${UBL}CommonAggregateComponents-2`,
	cbc: `${UBL}CommonBasicComponents-2`,
	sbdh: 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader',
};

/** An Invoice Response refusing invoice INV-2024-0042, in the OpenPEPPOL example's form. */
export const IMR_REJECTED = `<?xml version="1.0" encoding="UTF-8"?>
<ApplicationResponse xmlns="${NS.response}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}">
	<cbc:CustomizationID>urn:fdc:peppol.eu:poacc:trns:invoice_response:3</cbc:CustomizationID>
	<cbc:ProfileID>urn:fdc:peppol.eu:poacc:bis:invoice_response:3</cbc:ProfileID>
	<cbc:ID>imr-7781</cbc:ID>
	<cbc:IssueDate>2024-03-05</cbc:IssueDate>
	<cbc:Note>Please contact purchasing</cbc:Note>
	<cac:SenderParty>
		<cbc:EndpointID schemeID="0208">0123456749</cbc:EndpointID>
		<cac:PartyLegalEntity><cbc:RegistrationName>Peppol Demo Belgium NV</cbc:RegistrationName></cac:PartyLegalEntity>
	</cac:SenderParty>
	<cac:ReceiverParty>
		<cbc:EndpointID schemeID="0208">0314159244</cbc:EndpointID>
		<cac:PartyLegalEntity><cbc:RegistrationName>Emulator Master BV</cbc:RegistrationName></cac:PartyLegalEntity>
	</cac:ReceiverParty>
	<cac:DocumentResponse>
		<cac:Response>
			<cbc:ResponseCode listID="UNCL4343OpSubset">RE</cbc:ResponseCode>
			<cbc:EffectiveDate>2024-03-05</cbc:EffectiveDate>
			<cac:Status>
				<cbc:StatusReasonCode listID="OPStatusReason">REF</cbc:StatusReasonCode>
				<cbc:StatusReason>Purchase order number PO-17 &amp; contract unknown</cbc:StatusReason>
			</cac:Status>
			<cac:Status>
				<cbc:StatusReasonCode listID="OPStatusAction">NIN</cbc:StatusReasonCode>
			</cac:Status>
		</cac:Response>
		<cac:DocumentReference>
			<cbc:ID>INV-2024-0042</cbc:ID>
			<cbc:IssueDate>2024-03-01</cbc:IssueDate>
			<cbc:DocumentTypeCode>380</cbc:DocumentTypeCode>
		</cac:DocumentReference>
	</cac:DocumentResponse>
</ApplicationResponse>
`;

/** The same kind of answer (under query) from a JAXB-style writer: ns2 root, cbc as the default namespace, CDATA. */
export const IMR_UNDER_QUERY_NS2 = `<?xml version='1.0' encoding='utf-8' standalone='yes'?>
<ns2:ApplicationResponse xmlns="${NS.cbc}" xmlns:ns2="${NS.response}" xmlns:ns3="${NS.cac}">
<CustomizationID>urn:fdc:peppol.eu:poacc:trns:invoice_response:3</CustomizationID><ProfileID>urn:fdc:peppol.eu:poacc:bis:invoice_response:3</ProfileID>
<ID>0b7e9c</ID><IssueDate>2024-04-02</IssueDate>
<ns3:SenderParty><EndpointID schemeID="9925">BE0456789133</EndpointID></ns3:SenderParty>
<ns3:ReceiverParty><EndpointID schemeID="0208">0314159244</EndpointID></ns3:ReceiverParty>
<ns3:DocumentResponse><ns3:Response><ResponseCode>UQ</ResponseCode>
<ns3:Status><StatusReasonCode listID="OPStatusReason">PRI</StatusReasonCode><StatusReason><![CDATA[Unit price <12.50> differs from the offer]]></StatusReason></ns3:Status>
</ns3:Response><ns3:DocumentReference><ID>INV-7</ID><DocumentTypeCode>380</DocumentTypeCode></ns3:DocumentReference></ns3:DocumentResponse>
</ns2:ApplicationResponse>`;

/** An IMR (paid) in its SBDH envelope; cac and cbc are declared on the envelope, not on the document. */
export const IMR_PAID_SBDH = `<?xml version="1.0" encoding="UTF-8"?>
<sh:StandardBusinessDocument xmlns:sh="${NS.sbdh}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}">
  <sh:StandardBusinessDocumentHeader>
    <sh:HeaderVersion>1.0</sh:HeaderVersion>
    <sh:Sender><sh:Identifier Authority="iso6523-actorid-upis">0208:0123456749</sh:Identifier></sh:Sender>
    <sh:Receiver><sh:Identifier Authority="iso6523-actorid-upis">0208:0314159244</sh:Identifier></sh:Receiver>
    <sh:DocumentIdentification>
      <sh:Standard>${NS.response}</sh:Standard><sh:TypeVersion>2.1</sh:TypeVersion>
      <sh:InstanceIdentifier>6b1f1d0e-2c54-4a4c-9d62-2f3c0e6f1a77</sh:InstanceIdentifier>
      <sh:Type>ApplicationResponse</sh:Type><sh:CreationDateAndTime>2024-05-01T10:00:00Z</sh:CreationDateAndTime>
    </sh:DocumentIdentification>
  </sh:StandardBusinessDocumentHeader>
  <ApplicationResponse xmlns="${NS.response}">
    <cbc:CustomizationID>urn:fdc:peppol.eu:poacc:trns:invoice_response:3</cbc:CustomizationID>
    <cbc:ID>r-1</cbc:ID>
    <cac:DocumentResponse>
      <cac:Response><cbc:ResponseCode>PD</cbc:ResponseCode></cac:Response>
      <cac:DocumentReference><cbc:ID>INV-2024-0007</cbc:ID></cac:DocumentReference>
    </cac:DocumentResponse>
  </ApplicationResponse>
</sh:StandardBusinessDocument>
`;

/** A Message Level Response rejecting a message, with one line response (OpenPEPPOL MLR example shape). */
export const MLR_REJECTED = `<?xml version="1.0" encoding="UTF-8"?>
<ApplicationResponse xmlns="${NS.response}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}">
  <cbc:CustomizationID>urn:fdc:peppol.eu:poacc:trns:mlr:3</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:poacc:bis:mlr:3</cbc:ProfileID>
  <cbc:ID>MLR-ID123</cbc:ID>
  <cbc:IssueDate>2024-02-15</cbc:IssueDate>
  <cac:SenderParty><cbc:EndpointID schemeID="0088">7300010000001</cbc:EndpointID></cac:SenderParty>
  <cac:ReceiverParty><cbc:EndpointID schemeID="0088">7315458756328</cbc:EndpointID></cac:ReceiverParty>
  <cac:DocumentResponse>
    <cac:Response>
      <cbc:ResponseCode>RE</cbc:ResponseCode>
      <cbc:Description>Rejected due to validation errors</cbc:Description>
    </cac:Response>
    <cac:DocumentReference><cbc:ID>EnvelopeID-12456789</cbc:ID></cac:DocumentReference>
    <cac:LineResponse>
      <cac:LineReference><cbc:LineID>/Invoice/cbc:IssueDate</cbc:LineID></cac:LineReference>
      <cac:Response>
        <cbc:ResponseCode>RE</cbc:ResponseCode>
        <cbc:Description>Issue date is not a valid date</cbc:Description>
        <cac:Status><cbc:StatusReasonCode>BV</cbc:StatusReasonCode></cac:Status>
      </cac:Response>
    </cac:LineResponse>
  </cac:DocumentResponse>
</ApplicationResponse>
`;

/** A supplier's invoice in its envelope; the envelope's namespace is the default one. */
export const INVOICE_SBDH = `<?xml version="1.0" encoding="UTF-8"?>
<StandardBusinessDocument xmlns="${NS.sbdh}">
<StandardBusinessDocumentHeader><HeaderVersion>1.0</HeaderVersion>
<Sender><Identifier Authority="iso6523-actorid-upis">0208:0403170701</Identifier></Sender>
<Receiver><Identifier Authority="iso6523-actorid-upis">0208:0314159244</Identifier></Receiver>
<DocumentIdentification><Standard>${NS.invoice}</Standard><TypeVersion>2.1</TypeVersion><InstanceIdentifier>a1</InstanceIdentifier><Type>Invoice</Type><CreationDateAndTime>2024-06-01T08:00:00Z</CreationDateAndTime></DocumentIdentification>
</StandardBusinessDocumentHeader>
<Invoice xmlns="${NS.invoice}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}"><cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID><cbc:ID>SUP-00017</cbc:ID><cbc:IssueDate>2024-06-01</cbc:IssueDate><cbc:DueDate>2024-07-01</cbc:DueDate><cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode><cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
<cac:AccountingSupplierParty><cac:Party><cbc:EndpointID schemeID="0208">0403170701</cbc:EndpointID><cac:PartyName><cbc:Name>Office Supplies</cbc:Name></cac:PartyName><cac:PartyLegalEntity><cbc:RegistrationName>Office Supplies NV</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="0208">0314159244</cbc:EndpointID><cac:PartyLegalEntity><cbc:RegistrationName>Emulator Master BV</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
<cac:LegalMonetaryTotal><cbc:PayableAmount currencyID="EUR">59.29</cbc:PayableAmount></cac:LegalMonetaryTotal>
</Invoice>
</StandardBusinessDocument>`;

/** A credit note written with a ubl: prefix for its root and no default namespace. */
export const CREDIT_NOTE_PREFIXED = `<ubl:CreditNote xmlns:ubl="${NS.creditNote}" xmlns:cac="${NS.cac}" xmlns:cbc="${NS.cbc}">
<cbc:ID>CN-3</cbc:ID><cbc:IssueDate>2024-06-02</cbc:IssueDate><cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>
<cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>Only A Trading Name</cbc:Name></cac:PartyName></cac:Party></cac:AccountingSupplierParty>
</ubl:CreditNote>`;

export const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
