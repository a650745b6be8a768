import { ActivationDesk, CLOSED_ACTIVATION_RETENTION_MS } from './activations';
import { STOCK_PERIOD_MS } from './catalog';
import { HOUR_MS, isLiveActivation, MINUTE_MS, SimCore } from './engine-core';
import { rentSms, verificationSms } from './messages';
import type { Delivery } from './model';
import { CLOSED_RENT_RETENTION_MS, RentDesk } from './rents';

/** Gap between two SMS on a rented number after the first one. */
const RENT_SMS_GAP_MIN_MS = 5 * MINUTE_MS;
const RENT_SMS_GAP_MAX_MS = 2 * HOUR_MS;

/**
 * The simulated provider: the shared core (account, catalog, numbers), its activations and rents, and the
 * clock's tick that delivers SMS, closes what expired and forgets what is long closed.
 */
export class SimulatorEngine extends SimCore {
  readonly activations = new ActivationDesk(this);
  readonly rents = new RentDesk(this);

  /** Delivers due SMS, closes what expired, forgets what is long closed. Returns the new SMS. */
  tick(): Delivery[] {
    const now = this.now();
    if (now < this.nextDueAtMs) return [];
    let nextDueAtMs = Number.POSITIVE_INFINITY;
    const dueLater = (atMs: number | null) => {
      if (atMs !== null && atMs > now && atMs < nextDueAtMs) nextDueAtMs = atMs;
    };
    const deliveries: Delivery[] = [];
    for (const activation of Object.values(this.state.activations)) {
      if (!isLiveActivation(activation)) {
        if (activation.closedAtMs !== null && now - activation.closedAtMs > CLOSED_ACTIVATION_RETENTION_MS) {
          delete this.state.activations[activation.id];
          this.onChange(`activation:${activation.id}`);
        } else if (activation.closedAtMs !== null) {
          dueLater(activation.closedAtMs + CLOSED_ACTIVATION_RETENTION_MS + 1);
        }
        continue;
      }
      const dueAtMs = activation.nextSmsAtMs;
      if (dueAtMs !== null && dueAtMs <= now && dueAtMs < activation.expiresAtMs) {
        deliveries.push(
          this.activations.deliver(activation, verificationSms(activation.service, this.random), dueAtMs),
        );
      }
      if (now >= activation.expiresAtMs) {
        // Twenty minutes are over: without a code the number is refunded, with one it is billed.
        this.activations.close(
          activation,
          activation.sms.length > 0 ? 'finished' : 'cancelled',
          activation.expiresAtMs,
        );
      }
    }
    for (const rent of Object.values(this.state.rents)) {
      if (rent.status !== 'active') {
        if (rent.closedAtMs !== null && now - rent.closedAtMs > CLOSED_RENT_RETENTION_MS) {
          delete this.state.rents[rent.id];
          this.onChange(`rent:${rent.id}`);
        }
        continue;
      }
      while (rent.nextSmsAtMs !== null && rent.nextSmsAtMs <= now && rent.nextSmsAtMs < rent.endsAtMs) {
        deliveries.push(this.rents.deliver(rent, rentSms(rent.service, this.random), rent.nextSmsAtMs));
        rent.nextSmsAtMs += this.random.int(RENT_SMS_GAP_MIN_MS, RENT_SMS_GAP_MAX_MS);
      }
      if (now >= rent.endsAtMs) this.rents.close(rent, 'finished', rent.endsAtMs);
    }
    const period = `${Math.floor(now / STOCK_PERIOD_MS)}:`;
    for (const key of Object.keys(this.state.sold)) {
      if (!key.startsWith(period)) delete this.state.sold[key];
    }
    // The scan above may have scheduled or closed anything, so the next due time is taken from what remains.
    for (const activation of Object.values(this.state.activations)) {
      if (isLiveActivation(activation)) {
        dueLater(activation.nextSmsAtMs);
        dueLater(activation.expiresAtMs);
      }
    }
    for (const rent of Object.values(this.state.rents)) {
      if (rent.status === 'active') {
        dueLater(rent.nextSmsAtMs);
        dueLater(rent.endsAtMs);
      } else if (rent.closedAtMs !== null) {
        dueLater(rent.closedAtMs + CLOSED_RENT_RETENTION_MS + 1);
      }
    }
    this.nextDueAtMs = nextDueAtMs;
    return deliveries;
  }
}
