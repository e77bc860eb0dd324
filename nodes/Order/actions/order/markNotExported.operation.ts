/** Order › Mark as Not Exported: the export flag (`IsSent`) cleared, so the invoice counts as not yet booked again (./exportFlag.ts). */
import { updateDisplayOptions } from 'n8n-workflow';

import { exportFlag } from './exportFlag';
import { orderIdField } from './orderId';

export const description = updateDisplayOptions({ show: { resource: ['order'], operation: ['markNotExported'] } }, [orderIdField('The order to mark')]);

export const execute = exportFlag(false);
