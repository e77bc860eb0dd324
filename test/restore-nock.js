'use strict';
/**
 * After every test file: nock's interception of Node's http module is undone. Jest gives
 * each test file its own module registry but one Node process per worker, so a nock that a
 * file loaded keeps wrapping http.request for every later file in that worker (and its
 * pass-through mishandles, for instance, a large gzip answer, which the hostile-server
 * suite sends). Requiring nock here gets the test file's own instance when it loaded one.
 */
afterAll(() => {
	const nock = require('nock');
	nock.cleanAll();
	nock.restore();
});
