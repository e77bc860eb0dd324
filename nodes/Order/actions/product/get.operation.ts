/** Product › Get: one product by its ProductID (`GET /v1/products/{ID}`). */
import { updateDisplayOptions } from 'n8n-workflow';

import { getById, idField } from '../records';

export const description = updateDisplayOptions({ show: { resource: ['product'], operation: ['get'] } }, [idField('product')]);

export const execute = getById('product');
