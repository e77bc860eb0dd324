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

/** @type {EntitySchema} */
const ORDER = {
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

/** @type {EntitySchema} */
const PRODUCT = {
	name: 'Product',
	key: 'ProductID',
	fields: {
		ProductID: 'number',
		Reference: 'string',
		Description: 'string',
		GroupName: 'string',
		Unit: 'string',
		UnitPriceExcl: 'number',
		VATPercentage: 'number',
		IsActive: 'boolean',
		Created: 'datetime',
		LastModified: 'datetime',
	},
};

module.exports = { ORDER, PARTY, PRODUCT };
