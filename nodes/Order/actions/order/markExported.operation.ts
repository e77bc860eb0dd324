/** Order › Mark as Exported: the export flag (`IsSent`) set on a received supplier invoice once booked (./exportFlag.ts). */
import { updateDisplayOptions } from 'n8n-workflow';

import { exportFlag } from './exportFlag';
import { orderIdField } from './orderId';

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['markExported'] } }, [orderIdField('The order to mark')]);

export const execute = exportFlag(true);
