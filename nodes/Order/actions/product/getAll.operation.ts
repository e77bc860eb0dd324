/** Product › Get Many (list.ts). */
import { listOperation } from '../list';

export const { description, execute } = listOperation('product');
