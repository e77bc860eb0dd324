/** Order › Mark as Not Exported: `IsSent: false`, so the order is exported again (see markExported.operation.ts). */
import { exportFlag } from './markExported.operation';

const markNotExported = exportFlag('markNotExported', false);
export const description = markNotExported.description;
export const execute = markNotExported.execute;
