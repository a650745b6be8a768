import { orderReasonText, RENT_STATUS, type Rent, type RentStatusResponse } from '@simcode/contract';
import type { RentRow, RentSmsMessage } from '../../../db/schema';
import { findOwnedRent } from './cancel';
import type { RentDeps } from './deps';
import { presentRent } from './presenter';

/** The rent-status answer of spec section 3 from a rent and its SMS. */
export function rentStatusAnswer(
  rent: Pick<RentRow, 'status' | 'statusReason'>,
  values: RentStatusResponse['values'],
): RentStatusResponse {
  if (rent.status === 'failed')
    return {
      status: 'error',
      message: RENT_STATUS.canceled,
      values,
      error: orderReasonText('rent', rent.statusReason),
    };
  if (values.length > 0) return { status: 'success', message: null, values, error: null };
  switch (rent.status) {
    case 'canceled':
      return { status: 'error', message: RENT_STATUS.canceled, values, error: null };
    case 'expired':
      return { status: 'error', message: RENT_STATUS.finished, values, error: null };
    default:
      return { status: 'error', message: RENT_STATUS.waiting, values, error: null };
  }
}

/** What the pages and the APIs read of a user's rents, from our database only. */
export function createRentQueries(deps: RentDeps) {
  const { repository } = deps;

  /** Rents as the API shows them, with their standing renewals in the price. */
  async function present(rows: RentRow[]): Promise<Rent[]> {
    const ids = rows.map((row) => row.id);
    const [totals, withSms] = await Promise.all([
      repository.renewalTotals(ids),
      repository.withMessages(ids),
    ]);
    return rows.map((row) => presentRent(row, totals.get(row.id), withSms.has(row.id)));
  }

  return {
    present,
    presentOne: async (row: RentRow) => (await present([row]))[0]!,
    findOwn: (userId: number, orderId: string) => findOwnedRent(deps, userId, orderId),

    /** A user's rent by our id, issued or not, refused purchases left out; undefined when it is not theirs. */
    async findOwnById(userId: number, id: number): Promise<RentRow | undefined> {
      const found = await repository.findById(id);
      return found && found.userId === userId && found.status !== 'failed' ? found : undefined;
    },

    /** The user's rents, newest first, one page at a time. */
    listRows: (userId: number, limit: number, beforeId?: number, apiKeyId?: number) =>
      repository.listForUser(userId, limit, beforeId, apiKeyId),
    async list(userId: number, limit: number, beforeId?: number): Promise<Rent[]> {
      return present(await repository.listForUser(userId, limit, beforeId));
    },

    /** A rent's SMS, newest first (never those that came after it ended). */
    messagesOf: (rent: Pick<RentRow, 'id'>): Promise<RentSmsMessage[]> => repository.messagesOf(rent.id),

    /** The rent-status answer of spec section 3, from our database only. */
    async statusOf(userId: number, orderId: string): Promise<RentStatusResponse> {
      const found = await findOwnedRent(deps, userId, orderId);
      const values = (await repository.messagesOf(found.id)).map((message) => ({
        phoneFrom: message.sender,
        text: message.text,
        code: message.code,
        date: message.receivedAt.toISOString(),
      }));
      return rentStatusAnswer(found, values);
    },

    countsForUser: (userId: number) => repository.countsForUser(userId),
  };
}
