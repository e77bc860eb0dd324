/** Product › Get: one product by its ProductID (`GET /v1/products/{ID}`). */
import { getOperation } from '../party/records';

export const { description, execute } = getOperation('product');
