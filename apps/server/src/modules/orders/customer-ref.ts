import { createHmac } from 'node:crypto';

/**
 * A buyer's id for suppliers that take one per purchase (HeroSMS's `resellerUserId`): stable, so the
 * supplier's record and any ban follow that buyer rather than our whole account, and anonymous, an HMAC of
 * the user id under the installation's secret, so the supplier learns neither our ids nor our numbers of users.
 */
export function customerRefs(secret: string): (userId: number) => string {
  return (userId) =>
    createHmac('sha256', secret).update(`reseller-user:${userId}`).digest('hex').slice(0, 24);
}
