/** Party › Get: one party by its PartyID (`GET /v1/parties/{ID}`). */
import { updateDisplayOptions } from 'n8n-workflow';

import { getById, idField } from '../records';

export const description = updateDisplayOptions({ show: { resource: ['party'], operation: ['get'] } }, [idField('party')]);

export const execute = getById('party');
