/** Order › Get Many: the orders, searched, filtered and sorted (`GET /v1/orders`, ../list.ts). */
import { updateDisplayOptions } from 'n8n-workflow';

import { listExecute, listFields } from '../list';

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['getAll'] } }, listFields('order'));

export const execute = listExecute('order');
