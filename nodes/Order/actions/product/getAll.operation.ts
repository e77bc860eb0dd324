/** Product › Get Many: the products, filtered and sorted (`GET /v1/products`, ../list.ts). */
import { updateDisplayOptions } from 'n8n-workflow';

import { listExecute, listFields } from '../list';

export const description = updateDisplayOptions({ show: { resource: ['product'], operation: ['getAll'] } }, listFields('product'));

export const execute = listExecute('product');
