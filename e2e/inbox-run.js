#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/inbox.js (checkInboxTrigger: the Peppol Inbox Trigger published, an IMR, then a queue of good,
 * hostile and oversized documents) alone against the real n8n from the e2e cache (e2e/lib/alone.js).
 *
 *   npm run build && node e2e/inbox-run.js [--keep]
 */
const { runAlone } = require('./lib/alone');
const { checkInboxTrigger } = require('./lib/inbox');

runAlone('inbox', /error|inbox|AccessPoint/i, ({ rest, emulator, log }) => checkInboxTrigger({ rest, emulator, log }));
