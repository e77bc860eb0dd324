// @ts-check
'use strict';
/**
 * jest setupFilesAfterEnv: installs the published-contract check (./contract.js) in every test file, so each test fails on a
 * request the service does not publish as sent, and on a property the emulator dropped.
 */
/* global beforeEach, afterEach, afterAll, expect */
require('./contract').install({ beforeEach, afterEach, afterAll, expect });
