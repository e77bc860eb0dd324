'use strict';

/**
 * OData entity schemas: which properties can be filtered/sorted, with their types.
 * Names are case-sensitive, spelled as the API spells them.
 * @module emulator/schemas
 */

/** @typedef {import('./odata').EntitySchema} EntitySchema */

/** @param {string} name @returns {EntitySchema} */
const partyRef = (name) => ({
	name,
	fields: {
		PartyID: 'number',
		DisplayName: 'string',
		Name: 'string',
		PartyType: 'string',
		VATNumber: 'string',
		Email: 'string',
		CountryCode: 'string',
	},
});

/**
 * Orders as the service filters them since 17 March 2026 (page "OData for Filtering", docs/api.md): these 28
 * properties only; any other answers 400 "Could not find a property named 'X' on type '<name>'.".
 * That `CounterParty/...` names the same type in its error is assumed.
 * @type {EntitySchema}
 */
const ORDER = {
	name: 'Domain.Order.OrderPartyPerformanceSafeColumns',
	key: 'OrderID',
	fields: {
		OrderID: 'number',
		CounterParty: { name: 'Domain.Order.OrderPartyPerformanceSafeColumns', fields: { PartyID: 'number' } },
		CompanyID: 'number',
		OrderDirection: 'string',
		OrderType: 'string',
		OrderDate: 'date',
		OrderNumber: 'string',
		ExpiryDate: 'date',
		ExportedToConnector: 'boolean',
		AccountantVerificationNeeded: 'boolean',
		TotalExcl: 'number',
		TotalVAT: 'number',
		TotalIncl: 'number',
		FXRateToForeign: 'number',
		Paid: 'boolean',
		OrderStatus: 'string',
		ExternalProviderID: 'string',
		Currency: 'string',
		PaymentReference: 'string',
		LastModified: 'datetime',
		Created: 'datetime',
		ApprovalStatus: 'string',
		PaidDate: 'date',
		PaymentMethod: 'string',
		Reference: 'string',
		RemindersSent: 'number',
		ExternalProvider: 'string',
		IsSent: 'boolean',
	},
};

/**
 * The emulator's earlier, wider order schema (config `orderFilter: 'all'`): every field it stores, filterable.
 * Not what the service does; kept to compare.
 * @type {EntitySchema}
 */
const ORDER_ALL = {
	name: 'Order',
	key: 'OrderID',
	fields: {
		OrderID: 'number',
		CompanyID: 'number',
		OrderNumber: 'string',
		OrderType: 'string',
		OrderDirection: 'string',
		OrderDate: 'date',
		ExpiryDate: 'date',
		DeliveryDate: 'date',
		Created: 'datetime',
		LastModified: 'datetime',
		Currency: 'string',
		TotalExcl: 'number',
		TotalVAT: 'number',
		TotalIncl: 'number',
		ToPay: 'number',
		Paid: 'boolean',
		PaidDate: 'date',
		PaymentReference: 'string',
		OrderStatus: 'string',
		IsSent: 'boolean',
		Overdue: 'boolean',
		DaysOverdue: 'number',
		ExternalProviderID: 'string',
		Reference: 'string',
		Customer: partyRef('Customer'),
		Supplier: partyRef('Supplier'),
		CounterParty: partyRef('Party'),
	},
};

/** @type {EntitySchema} */
const PARTY = {
	name: 'Party',
	key: 'PartyID',
	fields: {
		PartyID: 'number',
		DisplayName: 'string',
		Name: 'string',
		PartyType: 'string',
		VATNumber: 'string',
		Email: 'string',
		Phone: 'string',
		Language: 'string',
		IBAN: 'string',
		Street: 'string',
		Zipcode: 'string',
		City: 'string',
		CountryCode: 'string',
		Created: 'datetime',
		LastModified: 'datetime',
	},
};

/**
 * Products: properties of the published `Product` (openapi.json) only; `UnitPriceExcl`, `VATPercentage`, `IsActive`
 * (names the emulator once assumed) are not on it and answer 400. Which of these the service filters on is not
 * published beyond `LastModified` and `GroupName` (assumed: all).
 * @type {EntitySchema}
 */
const PRODUCT = {
	name: 'Product',
	key: 'ProductID',
	fields: {
		ProductID: 'number',
		Reference: 'string',
		Description: 'string',
		GroupName: 'string',
		Unit: 'string',
		AmountExcl: 'number',
		AmountIncl: 'number',
		VAT: 'number',
		Created: 'datetime',
		LastModified: 'datetime',
	},
};

module.exports = { ORDER, ORDER_ALL, PARTY, PRODUCT };
