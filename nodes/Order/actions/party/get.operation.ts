/** Party › Get: one party by its PartyID (`GET /v1/parties/{ID}`). */
import { getOperation } from './records';

export const { description, execute } = getOperation('party');
