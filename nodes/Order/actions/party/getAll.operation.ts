/** Party › Get Many: the parties, filtered and sorted (`GET /v1/parties`, ../list.ts). */
import { updateDisplayOptions } from 'n8n-workflow';

import { listExecute, listFields } from '../list';

export const description = updateDisplayOptions({ show: { resource: ['party'], operation: ['getAll'] } }, listFields('party'));

export const execute = listExecute('party');
